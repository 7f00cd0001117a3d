import { displayName } from '@cohort/shared/names';
import {
  highlightWords,
  type ParsedSearch,
  type SearchResults,
  type TextSegment,
} from '@cohort/shared/search';
import {
  type ChannelHitRow,
  HIGHLIGHT_START,
  HIGHLIGHT_STOP,
  type MessageHitRow,
  type PersonHitRow,
  type TaskHitRow,
} from './search.service.ts';

const person = (p: { id: string; email: string; firstName: string; lastName: string }) => ({
  _id: p.id,
  email: p.email,
  name: displayName(p),
});

/** Highlighted text as segments: the client renders `match` pieces in <mark>, never as HTML. */
const snippetOf = (hit: MessageHitRow): TextSegment[] => {
  if (hit.highlighted) return segmentsFrom(hit.headline);
  return hit.headline ? [{ text: hit.headline, match: false }] : [];
};

/** Splits ts_headline's output at its delimiters. */
export function segmentsFrom(headline: string): TextSegment[] {
  const out: TextSegment[] = [];
  let match = false;
  for (const piece of headline.split(/([\uE000\uE001])/)) {
    if (piece === HIGHLIGHT_START) match = true;
    else if (piece === HIGHLIGHT_STOP) match = false;
    else if (piece) {
      const prev = out.at(-1);
      if (prev && prev.match === match) prev.text += piece;
      else out.push({ text: piece, match });
    }
  }
  return out;
}

export function presentMessageHit(hit: MessageHitRow): SearchResults['messages'][number] {
  const base = {
    _id: hit.id,
    seq: hit.seq,
    timestamp: hit.createdAt.toISOString(),
    sender: person(hit.sender),
    snippet: snippetOf(hit),
  };
  if (hit.kind === 'channel' && hit.channel && hit.workspace) {
    return {
      ...base,
      kind: 'channel',
      parentId: hit.parentId,
      channel: { _id: hit.channel.id, name: hit.channel.name, private: hit.channel.isPrivate },
      workspace: { _id: hit.workspace.id, name: hit.workspace.name },
    };
  }
  const other = hit.other ?? { id: '', email: '', firstName: '', lastName: '' };
  return { ...base, kind: 'direct', with: person(other) };
}

export function presentSearchResults(
  query: ParsedSearch,
  found: {
    messages: MessageHitRow[];
    nextCursor: string | null;
    channels: ChannelHitRow[];
    tasks: TaskHitRow[];
    people: PersonHitRow[];
  },
): SearchResults {
  const words = query.words;
  return {
    query,
    messages: found.messages.map(presentMessageHit),
    nextCursor: found.nextCursor,
    channels: found.channels.map((c) => ({
      _id: c.id,
      name: highlightWords(c.name, words),
      description: highlightWords(c.description, words),
      private: c.isPrivate,
      workspace: { _id: c.workspace.id, name: c.workspace.name },
    })),
    tasks: found.tasks.map((t) => ({
      _id: t.id,
      title: highlightWords(t.title, words),
      listTitle: t.listTitle,
      archived: t.archived,
    })),
    people: found.people.map((p) => ({
      _id: p.id,
      name: highlightWords(displayName(p), words),
      email: highlightWords(p.email, words),
    })),
  };
}
