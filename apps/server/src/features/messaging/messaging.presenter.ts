import type { MessageReaction } from '@cohort/shared/chat';
import type { StoredReaction } from './messaging.access.ts';

/** Reactions as both channel and direct messages present them. */
export function presentReactions(reactions: StoredReaction[]): MessageReaction[] {
  return reactions.map((r) => ({
    emoji: r.emoji,
    count: r.users.length,
    users: r.users.map((u) => ({ _id: u.id, name: u.name })),
  }));
}
