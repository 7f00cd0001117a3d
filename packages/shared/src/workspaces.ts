import { z } from 'zod';
import { emailSchema } from './accounts.ts';
import { text } from './text.ts';
import {
  DESCRIPTION_MAX_LENGTH,
  NAME_MAX_LENGTH,
  WORKSPACE_MEMBERS_MAX,
  WORKSPACE_MESSAGES,
  WORKSPACE_ROLES,
} from './workspaces.constants.ts';

export * from './workspaces.constants.ts';

/** Accepts "Admin" as typed in a select as well as "admin"; anything else is a 400. */
export const workspaceRole = z
  .string({ error: WORKSPACE_MESSAGES.invalidRole })
  .trim()
  .toLowerCase()
  .pipe(z.enum(WORKSPACE_ROLES, { error: WORKSPACE_MESSAGES.invalidRole }));

const nameField = text().trim().max(NAME_MAX_LENGTH, WORKSPACE_MESSAGES.nameTooLong);
const descriptionField = text().trim().max(DESCRIPTION_MAX_LENGTH, WORKSPACE_MESSAGES.descriptionTooLong);

/**
 * "Both required" is one sentence in the spec, so it is one object-level (custom) issue pointing at
 * the first missing field rather than two field-level ones.
 */
const requireNameAndDescription =
  (message: string) =>
  (value: { name?: string | undefined; description?: string | undefined }, ctx: z.RefinementCtx) => {
    const missing = !value.name ? 'name' : !value.description ? 'description' : undefined;
    if (missing) ctx.addIssue({ code: 'custom', message, path: [missing] });
  };

// ---------------------------------------------------------------------------------------------------
// Requests

export const workspaceMemberInput = z.object({
  email: emailSchema,
  role: workspaceRole.default('viewer'),
});
export type WorkspaceMemberInput = z.input<typeof workspaceMemberInput>;

/** `createdBy` from the spec's client is accepted and dropped: the creator is the session user. */
export const createWorkspaceBody = z
  .object({
    name: nameField.optional(),
    description: descriptionField.optional(),
    members: z
      .array(workspaceMemberInput)
      .max(WORKSPACE_MEMBERS_MAX, `At most ${WORKSPACE_MEMBERS_MAX} members at once`)
      .default([]),
  })
  .superRefine(requireNameAndDescription(WORKSPACE_MESSAGES.nameAndDescriptionRequired))
  .transform((v) => ({ name: v.name ?? '', description: v.description ?? '', members: v.members }));
export type CreateWorkspaceBody = z.input<typeof createWorkspaceBody>;

export const updateWorkspaceBody = z.object({
  name: nameField.min(1, 'Name is required').optional(),
  description: descriptionField.min(1, 'Description is required').optional(),
});
export type UpdateWorkspaceBody = z.input<typeof updateWorkspaceBody>;

export const addMemberBody = workspaceMemberInput;
export type AddMemberBody = z.input<typeof addMemberBody>;

export const updateMemberBody = z.object({ role: workspaceRole });
export type UpdateMemberBody = z.input<typeof updateMemberBody>;

// Control characters (C0, DEL, C1) are refused in a channel's name, description and topic (issue 22):
// stored, they would show as boxes or move the cursor. A description keeps line breaks and tabs.
function hasControlCharacters(s: string, multiline: boolean): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (multiline && (c === 0x09 || c === 0x0a || c === 0x0d)) continue;
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}
const NO_CONTROL = 'must not contain control characters';
const noControl = (s: string) => !hasControlCharacters(s, false);
const noControlMultiline = (s: string) => !hasControlCharacters(s, true);

export const createChannelBody = z
  .object({
    name: nameField.refine(noControl, NO_CONTROL).optional(),
    description: descriptionField.refine(noControlMultiline, NO_CONTROL).optional(),
    /** User ids (the `_id` of GET …/members); each must be an active member of the workspace. */
    members: z
      .array(z.uuid('Channel members are user ids'))
      .max(WORKSPACE_MEMBERS_MAX, `At most ${WORKSPACE_MEMBERS_MAX} members at once`)
      .default([]),
    private: z.boolean().default(false),
  })
  .superRefine(requireNameAndDescription(WORKSPACE_MESSAGES.channelFieldsRequired))
  .transform((v) => ({
    name: v.name ?? '',
    description: v.description ?? '',
    members: v.members,
    private: v.private,
  }));
export type CreateChannelBody = z.input<typeof createChannelBody>;

export const CHANNEL_TOPIC_MAX = 250;

export const updateChannelBody = z.object({
  name: nameField.min(1, 'Name is required').refine(noControl, NO_CONTROL).optional(),
  description: descriptionField
    .min(1, 'Description is required')
    .refine(noControlMultiline, NO_CONTROL)
    .optional(),
  /** '' clears the topic. */
  topic: text()
    .trim()
    .max(CHANNEL_TOPIC_MAX, `Topic is too long (${CHANNEL_TOPIC_MAX} characters at most)`)
    .refine(noControl, NO_CONTROL)
    .optional(),
});
export type UpdateChannelBody = z.input<typeof updateChannelBody>;

/** `{workspaceName}` is the workspace's name (any case) or its id; longer input simply matches nothing. */
export const workspaceParams = z.object({ workspaceName: z.string().min(1).max(200) });
export const channelParams = workspaceParams.extend({ channelId: z.string().min(1).max(200) });
export const memberParams = workspaceParams.extend({ userId: z.string().min(1).max(200) });
export const invitationParams = workspaceParams.extend({ email: z.string().min(1).max(320) });

/** The spec's client sends the stored e-mail as `?userEmail` / `?userId`; it never selects anything. */
export const listWorkspacesQuery = z.object({ userEmail: z.string().max(320).optional() });
export const getWorkspaceQuery = z.object({ userId: z.string().max(320).optional() });

// ---------------------------------------------------------------------------------------------------
// Responses

export const memberStatus = z.enum(['active', 'invited']);
export type MemberStatus = z.infer<typeof memberStatus>;

/** A member as embedded in a workspace; `userId` is null while the e-mail is only invited. */
export const workspaceMember = z.object({
  userId: z.string().nullable(),
  email: z.string(),
  role: z.enum(WORKSPACE_ROLES),
  status: memberStatus,
});
export type WorkspaceMember = z.infer<typeof workspaceMember>;

/** A row of GET …/members; invited e-mails have `_id: null` and empty names. */
export const memberListItem = z.object({
  _id: z.string().nullable(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(WORKSPACE_ROLES),
  status: memberStatus,
});
export type MemberListItem = z.infer<typeof memberListItem>;
export const memberList = z.array(memberListItem);

export const channel = z.object({
  _id: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  description: z.string(),
  private: z.boolean(),
  /** User ids of the channel's listed members (the creator is always one). */
  members: z.array(z.string()),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  /** A short line shown in the header ('' when none). */
  topic: z.string(),
  /** Archived: read-only, out of the sidebar, still readable and searchable by its readers. */
  archived: z.boolean(),
  /** The caller is a member: joined (open channel) or listed (private). */
  joined: z.boolean(),
  /** The caller starred it (their own sidebar's first group). */
  starred: z.boolean(),
});
export type Channel = z.infer<typeof channel>;
export const channelList = z.array(channel);

export const workspaceSummary = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  /** The creator's e-mail; null once that account is gone. */
  createdBy: z.string().nullable(),
  members: z.array(workspaceMember),
  createdAt: z.string(),
});
export type WorkspaceSummary = z.infer<typeof workspaceSummary>;
export const workspaceList = z.array(workspaceSummary);

export const workspaceDetail = workspaceSummary.extend({
  /** The caller's own role, so the client can hide what it may not do (the server still enforces). */
  role: z.enum(WORKSPACE_ROLES),
  chat: z.object({ channels: z.array(channel) }),
});
export type WorkspaceDetail = z.infer<typeof workspaceDetail>;

// ---------------------------------------------------------------------------------------------------
// Profile

export const PHONE_MAX_LENGTH = 30;
export const JOB_ROLE_MAX_LENGTH = 80;

const personName = (label: string) =>
  text()
    .trim()
    .min(1, `${label} is required`)
    .max(NAME_MAX_LENGTH, `${label} is too long (${NAME_MAX_LENGTH} characters at most)`);

/** Empty text clears an optional profile field, as null does. */
const clearable = <T extends z.ZodType<string | null>>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), schema.nullable());

export const updateProfileBody = z.object({
  firstName: personName('First name').optional(),
  lastName: personName('Last name').optional(),
  /** A free-text job title ("Designer"), not a workspace role. */
  role: clearable(
    text().trim().max(JOB_ROLE_MAX_LENGTH, `Role is too long (${JOB_ROLE_MAX_LENGTH} characters at most)`),
  ).optional(),
  phone: clearable(
    z
      .string()
      .trim()
      .max(PHONE_MAX_LENGTH, `Phone is too long (${PHONE_MAX_LENGTH} characters at most)`)
      .regex(/^\+?[0-9][0-9 ().-]{2,}$/, 'Enter a valid phone number'),
  ).optional(),
});
export type UpdateProfileBody = z.input<typeof updateProfileBody>;

/** The spec's `?email=` is accepted and ignored: the profile is always the caller's. */
export const profileQuery = z.object({ email: z.string().max(320).optional() });

export const profileResponse = z.object({
  user: z.object({
    _id: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    role: z.string().nullable(),
    phone: z.string().nullable(),
  }),
  /** Workspaces the caller created and still belongs to. */
  workspaces: z.array(z.object({ _id: z.string(), name: z.string(), description: z.string() })),
});
export type ProfileResponse = z.infer<typeof profileResponse>;
