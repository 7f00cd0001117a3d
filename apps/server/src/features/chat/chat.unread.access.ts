import type { AppContext } from '../../context.ts';
import { countUnread, type SeqMark } from '../messaging/messaging.unread.access.ts';

/**
 * Unread counting for the reads feature, so it never queries the chat tables itself. The caller has
 * already checked that the reader may read these channels.
 */

/** Per channel: top-level, not deleted messages of others with seq > afterSeq, at most `cap`. */
export function countUnreadInChannels(
  ctx: AppContext,
  readerId: string,
  marks: SeqMark[],
  cap: number,
): Promise<Map<string, number>> {
  return countUnread(ctx, 'channel', readerId, marks, cap);
}
