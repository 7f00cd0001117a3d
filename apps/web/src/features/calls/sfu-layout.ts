/**
 * The pure parts of an SFU meeting (issue 23): who is shown large, and which publisher each of the
 * one subscriber connection's m-lines carries. No Janus here, so the page can import this eagerly.
 */

/** Sent cameras in an SFU room: a meeting of 25 is 24 decoders on every screen. */
export const SFU_CAMERA: MediaTrackConstraints = {
  // With only maxima a camera may drop to its next smaller mode (320×240); the ideal keeps 640×360.
  width: { ideal: 640, max: 640 },
  height: { ideal: 360, max: 360 },
  frameRate: { max: 15 },
};

export interface SpeakerLayout {
  large: string[];
  strip: string[];
}

/**
 * Everyone speaking is large; when nobody speaks, the most recent speaker (if still here), else the
 * first participant. The rest, in their order, form the strip.
 */
export function speakerLayout(
  ids: string[],
  speaking: ReadonlySet<string>,
  last: string | null,
): SpeakerLayout {
  let large = ids.filter((id) => speaking.has(id));
  if (large.length === 0) large = last !== null && ids.includes(last) ? [last] : ids.slice(0, 1);
  return { large, strip: ids.filter((id) => !large.includes(id)) };
}

/** What one m-line of the subscriber connection carries: a publisher's feed, and which of its streams. */
export interface Carried {
  feed: string;
  /** The publisher's own mid of that stream (`feed_mid`); two m-lines with the same one are a duplicate. */
  feedMid: string | null;
}

/**
 * Folds a VideoRoom subscriber's `streams` (from its `attached` and `updated` events) into the
 * mid → publisher map. Janus keeps a stream whose publisher left as an inactive m-line and may give
 * that mid to another publisher later, so inactive entries are forgotten and active ones replace.
 */
export function applyStreams(current: ReadonlyMap<string, Carried>, streams: unknown): Map<string, Carried> {
  const next = new Map(current);
  if (!Array.isArray(streams)) return next;
  for (const stream of streams) {
    if (!stream || typeof stream !== 'object') continue;
    const {
      mid,
      feed_id: feed,
      feed_mid: feedMid,
      active,
    } = stream as { mid?: unknown; feed_id?: unknown; feed_mid?: unknown; active?: unknown };
    if (mid === undefined || mid === null) continue;
    if (active === false || feed === undefined || feed === null) next.delete(String(mid));
    else next.set(String(mid), { feed: String(feed), feedMid: feedMid == null ? null : String(feedMid) });
  }
  return next;
}

/**
 * The m-lines that repeat a stream an earlier m-line already carries (Janus adds a new m-line when
 * asked again for a feed it sends, e.g. after an answer came too late): the later ones are extra.
 */
export function duplicateMids(carried: ReadonlyMap<string, Carried>): string[] {
  const seen = new Set<string>();
  const extra: string[] = [];
  for (const [mid, { feed, feedMid }] of carried) {
    if (feedMid === null) continue;
    const key = `${feed}\n${feedMid}`;
    if (seen.has(key)) extra.push(mid);
    else seen.add(key);
  }
  return extra;
}

/** The received tracks grouped by publisher (only mids that carry one now, each stream once). */
export function tracksByFeed<T>(
  carried: ReadonlyMap<string, Carried>,
  trackOfMid: ReadonlyMap<string, T>,
): Map<string, T[]> {
  const extra = new Set(duplicateMids(carried));
  const byFeed = new Map<string, T[]>();
  for (const [mid, track] of trackOfMid) {
    const feed = carried.get(mid)?.feed;
    if (feed === undefined || extra.has(mid)) continue;
    byFeed.set(feed, [...(byFeed.get(feed) ?? []), track]);
  }
  return byFeed;
}
