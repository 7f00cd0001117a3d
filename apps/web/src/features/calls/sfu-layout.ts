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

/**
 * Folds a VideoRoom subscriber's `streams` (from its `attached` and `updated` events) into the
 * mid → publisher map. Janus keeps a stream whose publisher left as an inactive m-line and may give
 * that mid to another publisher later, so inactive entries are forgotten and active ones replace.
 */
export function applyStreams(current: ReadonlyMap<string, string>, streams: unknown): Map<string, string> {
  const next = new Map(current);
  if (!Array.isArray(streams)) return next;
  for (const stream of streams) {
    if (!stream || typeof stream !== 'object') continue;
    const { mid, feed_id: feed, active } = stream as { mid?: unknown; feed_id?: unknown; active?: unknown };
    if (mid === undefined || mid === null) continue;
    if (active === false || feed === undefined || feed === null) next.delete(String(mid));
    else next.set(String(mid), String(feed));
  }
  return next;
}

/** The received tracks grouped by publisher (only mids that carry one now). */
export function tracksByFeed<T>(
  feedOfMid: ReadonlyMap<string, string>,
  trackOfMid: ReadonlyMap<string, T>,
): Map<string, T[]> {
  const byFeed = new Map<string, T[]>();
  for (const [mid, track] of trackOfMid) {
    const feed = feedOfMid.get(mid);
    if (feed === undefined) continue;
    byFeed.set(feed, [...(byFeed.get(feed) ?? []), track]);
  }
  return byFeed;
}
