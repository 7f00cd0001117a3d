import { displayName } from '@cohort/shared/names';
import type { SavedItem } from '@cohort/shared/saved';
import type { SavedRow } from './saved.service.ts';

const iso = (value: Date | string) => new Date(value).toISOString();

/** The only shape a saved message leaves the server in. */
export function presentSavedItem(r: SavedRow): SavedItem {
  return {
    kind: r.kind,
    messageId: r.message_id,
    savedAt: iso(r.saved_at),
    conversation:
      r.kind === 'channel'
        ? {
            kind: 'channel',
            workspaceId: r.workspace_id ?? '',
            workspaceName: r.workspace_name ?? '',
            channelId: r.channel_id ?? '',
            channelName: r.channel_name ?? '',
          }
        : {
            kind: 'direct',
            email: r.other_email ?? '',
            name: displayName({
              email: r.other_email ?? '',
              firstName: r.other_first_name ?? '',
              lastName: r.other_last_name ?? '',
            }),
          },
    sender: {
      _id: r.sender_id,
      email: r.sender_email,
      name: displayName({
        email: r.sender_email,
        firstName: r.sender_first_name,
        lastName: r.sender_last_name,
      }),
    },
    content: r.content,
    timestamp: iso(r.created_at),
    seq: Number(r.seq),
    parentId: r.parent_id,
  };
}
