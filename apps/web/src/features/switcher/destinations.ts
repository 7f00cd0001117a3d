import type { SwitcherData } from '@cohort/shared/switcher';
import { chatWithUrl } from '../people/people.public.ts';
import { channelPath, workspacePath } from '../workspaces/workspaces.public.ts';
import { fuzzyMatch } from './fuzzy.ts';
import { recentKey } from './recent.ts';

/** One place the quick switcher (and the search box's suggestions) can open. */
export interface Destination {
  /** Its key in the recent list (recent.ts). */
  key: string;
  kind: 'channel' | 'person' | 'workspace';
  /** What is matched and shown first: a channel's name, a person's name, a workspace's name. */
  label: string;
  /** The second line: a channel's workspace, a person's e-mail (also matched). */
  detail: string;
  href: string;
  private: boolean;
  archived: boolean;
}

export interface RankedDestination extends Destination {
  /** Matched characters of `label` and of `detail` (for <mark>). */
  labelMatch: number[];
  detailMatch: number[];
}

export const SWITCHER_RESULTS_MAX = 20;

/** Below any unarchived match of the same kind of match (a fuzzy tier is 10,000). */
const ARCHIVED_PENALTY = 3_000;

export function destinationsOf(data: SwitcherData): Destination[] {
  return [
    ...data.channels.map((c) => ({
      key: recentKey.channel(c._id),
      kind: 'channel' as const,
      label: c.name,
      detail: c.workspace.name,
      href: channelPath(c.workspace.name, c._id),
      private: c.private,
      archived: c.archived,
    })),
    ...data.people.map((p) => ({
      key: recentKey.person(p.email),
      kind: 'person' as const,
      label: p.name,
      detail: p.email,
      href: chatWithUrl(p.email),
      private: false,
      archived: false,
    })),
    ...data.workspaces.map((w) => ({
      key: recentKey.workspace(w.name),
      kind: 'workspace' as const,
      label: w.name,
      detail: '',
      href: workspacePath(w.name),
      private: false,
      archived: false,
    })),
  ];
}

/**
 * The destinations to list for `query`, best first, at most `limit`. Without a query: the recent ones
 * (most recent first), then the rest in the given order. With one: the fuzzy matches (fuzzy.ts) of the
 * label (a person's e-mail too), by score, ties broken by recency and then by label.
 */
export function rankDestinations(
  items: readonly Destination[],
  query: string,
  recent: readonly string[],
  limit = SWITCHER_RESULTS_MAX,
): RankedDestination[] {
  const recency = new Map(recent.map((key, i) => [key, i]));
  const rankOf = (d: Destination) => recency.get(d.key) ?? Number.POSITIVE_INFINITY;
  const q = query.trim().replace(/^[#@]/, '');
  if (!q) {
    const recentFirst = items.filter((d) => recency.has(d.key)).sort((a, b) => rankOf(a) - rankOf(b));
    const rest = items.filter((d) => !recency.has(d.key));
    return [...recentFirst, ...rest].slice(0, limit).map((d) => ({ ...d, labelMatch: [], detailMatch: [] }));
  }
  const scored: { d: RankedDestination; score: number }[] = [];
  for (const d of items) {
    const onLabel = fuzzyMatch(q, d.label);
    const onDetail = d.kind === 'person' ? fuzzyMatch(q, d.detail) : null;
    const best = onDetail && (!onLabel || onDetail.score > onLabel.score) ? 'detail' : 'label';
    const match = best === 'detail' ? onDetail : onLabel;
    if (!match) continue;
    scored.push({
      d: {
        ...d,
        labelMatch: best === 'label' ? match.positions : [],
        detailMatch: best === 'detail' ? match.positions : [],
      },
      score: match.score - (d.archived ? ARCHIVED_PENALTY : 0),
    });
  }
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      rankOf(a.d) - rankOf(b.d) ||
      a.d.label.localeCompare(b.d.label) ||
      a.d.detail.localeCompare(b.d.detail),
  );
  return scored.slice(0, limit).map((s) => s.d);
}
