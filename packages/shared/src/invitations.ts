import { z } from 'zod';
import { WORKSPACE_ROLES } from './workspaces.ts';

/**
 * Invitations with consent: adding someone to a workspace creates an invitation that the invitee,
 * signed in with a verified address equal to the invited one, accepts or declines (docs/accounts.md).
 */

/** How long an invitation (and its resent copy) stays valid. */
export const INVITATION_TTL_DAYS = 7;

export const INVITATION_MESSAGES = {
  /** Someone else's invitation, a removed one and a malformed id all read alike. */
  notFound: 'Invitation not found',
  verifyFirst: 'Verify your e-mail address first: only a verified address can accept invitations',
  expired: 'This invitation has expired. Ask an admin of the workspace to send it again',
  mailLimited: 'You have sent too many invitations in the last hour. Please wait a while and try again',
  resendLimited: 'This invitation was sent again too often in the last hour. Please wait a while',
} as const;

/** Invitee-side routes address an invitation by its id (the one in the e-mail's link). */
export const invitationIdParams = z.object({ invitationId: z.string().min(1).max(200) });

/** Admin-side routes address a pending invitation by its e-mail (one per workspace and address). */
export const workspaceInvitationParams = z.object({
  workspaceName: z.string().min(1).max(200),
  email: z.string().min(1).max(320),
});

const person = z.object({ name: z.string(), email: z.string() });

/** A pending invitation of mine (GET /api/invitations). */
export const myInvitation = z.object({
  _id: z.string(),
  workspace: z.object({ _id: z.string(), name: z.string(), description: z.string() }),
  role: z.enum(WORKSPACE_ROLES),
  /** Null once the inviter's account is gone. */
  invitedBy: person.nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type MyInvitation = z.infer<typeof myInvitation>;
export const myInvitationList = z.array(myInvitation);

/** What accepting answers: the workspace just joined and the role in it. */
export const acceptInvitationResponse = z.object({
  workspace: z.object({ _id: z.string(), name: z.string() }),
  role: z.enum(WORKSPACE_ROLES),
});
export type AcceptInvitationResponse = z.infer<typeof acceptInvitationResponse>;

/** A workspace's pending invitation, as its admins see it (GET /api/workspaces/{ws}/invitations). */
export const workspaceInvitation = z.object({
  _id: z.string(),
  email: z.string(),
  role: z.enum(WORKSPACE_ROLES),
  invitedBy: person.nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** Past its expiry: it can no longer be accepted until it is resent. */
  expired: z.boolean(),
});
export type WorkspaceInvitation = z.infer<typeof workspaceInvitation>;
export const workspaceInvitationList = z.array(workspaceInvitation);
