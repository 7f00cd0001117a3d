import { z } from 'zod';
import { channelParams, WORKSPACE_MEMBERS_MAX, WORKSPACE_ROLES } from './workspaces.ts';

export * from './channels.constants.ts';

/**
 * Managing channels (issue 22): browsing and joining open channels, renaming, topic, archive, the
 * member list and private-channel membership, starring. Rules: docs/permissions.md ("Channels").
 */

export const CHANNEL_MESSAGES = {
  archived: 'This channel is archived: it is read-only',
  alreadyArchived: 'This channel is already archived',
  notArchived: 'This channel is not archived',
  privateOnly: 'Members are added to private channels only: anyone in the workspace may join an open one',
  openOnly: 'Private channels are joined by being added by an admin',
  memberNotInChannel: 'This person is not a member of this channel',
  useLeave: 'To leave a channel yourself, use Leave channel',
  lastMember:
    'You are the last member of this private channel: add someone first, or ask an admin to delete it',
} as const;

// ---------------------------------------------------------------------------------------------------
// Requests

export const channelMemberParams = channelParams.extend({ userId: z.string().min(1).max(200) });

/** Adding people to a private channel: user ids of active workspace members (`_id` of GET …/members). */
export const addChannelMembersBody = z.object({
  userIds: z
    .array(z.uuid('Channel members are user ids'))
    .min(1, 'Choose at least one person')
    .max(WORKSPACE_MEMBERS_MAX, `At most ${WORKSPACE_MEMBERS_MAX} members at once`),
});
export type AddChannelMembersBody = z.input<typeof addChannelMembersBody>;

export const starChannelBody = z.object({ starred: z.boolean() });

// ---------------------------------------------------------------------------------------------------
// Responses

/** A row of the browse view: every open channel (and the private ones the caller is in), archived too. */
export const browseChannel = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  topic: z.string(),
  private: z.boolean(),
  archived: z.boolean(),
  memberCount: z.number().int(),
  /** The caller is a member (joined an open channel, or listed in a private one). */
  joined: z.boolean(),
});
export type BrowseChannel = z.infer<typeof browseChannel>;
export const browseChannelList = z.array(browseChannel);

/** A row of a channel's member list; presence comes from the presence feature by `_id`. */
export const channelMemberItem = z.object({
  _id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** Their workspace role. */
  role: z.enum(WORKSPACE_ROLES),
  isCreator: z.boolean(),
});
export type ChannelMemberItem = z.infer<typeof channelMemberItem>;
export const channelMemberList = z.array(channelMemberItem);

// ---------------------------------------------------------------------------------------------------
// Real-time (`/chat`, server → client)

/** The shared fields of a channel (no per-user ones: every reader gets the same event). */
export const channelInfo = z.object({
  _id: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  description: z.string(),
  topic: z.string(),
  private: z.boolean(),
  archived: z.boolean(),
});
export type ChannelInfo = z.infer<typeof channelInfo>;

export const channelUpdatedEvent = z.object({ channel: channelInfo });
export type ChannelUpdatedEvent = z.infer<typeof channelUpdatedEvent>;

export const channelMembersChangedEvent = z.object({
  workspaceId: z.string(),
  channelId: z.string(),
  memberCount: z.number().int(),
});
export type ChannelMembersChangedEvent = z.infer<typeof channelMembersChangedEvent>;

export const channelAccessLostEvent = z.object({ workspaceId: z.string(), channelId: z.string() });
export type ChannelAccessLostEvent = z.infer<typeof channelAccessLostEvent>;

// ---------------------------------------------------------------------------------------------------
// Announcements (system messages), worded once for both sides

export type ChannelChange =
  | { kind: 'renamed'; name: string }
  | { kind: 'described' }
  | { kind: 'topic'; topic: string }
  | { kind: 'archived' }
  | { kind: 'unarchived' }
  | { kind: 'joined' }
  | { kind: 'left' }
  | { kind: 'added'; names: string[] }
  | { kind: 'removed'; name: string };

/** The text of the system message announcing `change`, made by `actor` (a display name). */
export function announcement(actor: string, change: ChannelChange): string {
  switch (change.kind) {
    case 'renamed':
      return `${actor} renamed the channel to ${change.name}`;
    case 'described':
      return `${actor} changed the channel description`;
    case 'topic':
      return change.topic ? `${actor} set the topic: ${change.topic}` : `${actor} cleared the topic`;
    case 'archived':
      return `${actor} archived the channel`;
    case 'unarchived':
      return `${actor} unarchived the channel`;
    case 'joined':
      return `${actor} joined the channel`;
    case 'left':
      return `${actor} left the channel`;
    case 'added':
      return `${actor} added ${change.names.join(', ')}`;
    case 'removed':
      return `${actor} removed ${change.name}`;
  }
}
