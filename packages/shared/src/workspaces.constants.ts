// What workspaces.ts defines without zod, so that a screen can import it without the schemas (issue 21: zod stays out of
// the channel page's first download). workspaces.ts re-exports all of it.

/** Workspace roles, weakest first. Viewer is the default everywhere a role may be omitted. */
export const WORKSPACE_ROLES = ['viewer', 'editor', 'admin'] as const;

export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

export const NAME_MAX_LENGTH = 80;

export const DESCRIPTION_MAX_LENGTH = 1000;

export const WORKSPACE_MEMBERS_MAX = 200;

/** The messages the server sends and the client shows (spec §5 and §8 where the spec names them). */
/** Invitations one workspace may have pending at once: each one sends an e-mail to an outside address. */
export const PENDING_INVITATIONS_MAX = 200;

/** Members and pending invitations of one workspace together: every member list stays bounded. */
export const WORKSPACE_SEATS_MAX = 1000;

export const WORKSPACE_MESSAGES = {
  tooManyPending: `A workspace can have ${PENDING_INVITATIONS_MAX} pending invitations at most; revoke some or wait for answers`,
  workspaceFull: `A workspace can have ${WORKSPACE_SEATS_MAX} members and invitations at most`,
  nameAndDescriptionRequired: 'Name and description are required',
  nameTaken: 'A workspace with this name already exists',
  nameTooLong: `Name is too long (${NAME_MAX_LENGTH} characters at most)`,
  descriptionTooLong: `Description is too long (${DESCRIPTION_MAX_LENGTH} characters at most)`,
  invalidRole: 'Role must be viewer, editor or admin',
  workspaceNotFound: 'Workspace not found',
  memberNotFound: 'Member not found',
  invitationNotFound: 'Invitation not found',
  alreadyMember: 'This person is already a member of this workspace',
  alreadyInvited: 'This e-mail has already been invited to this workspace',
  lastAdmin: 'A workspace needs at least one admin',
  lastAdminLeave:
    'You are the last admin of this workspace: make someone else an admin first, or delete the workspace',
  invitationSent: 'Invitation sent',
  channelFieldsRequired: 'Please provide a channel name and description.',
  channelNameTaken: 'A channel with this name already exists in this workspace',
  channelNotFound: 'Channel not found',
  channelMemberNotFound: 'Channel members must be members of this workspace',
} as const;
