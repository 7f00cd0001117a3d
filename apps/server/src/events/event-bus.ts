import type { ChannelChange } from '@cohort/shared/channels';
import type { WorkspaceRole } from '@cohort/shared/workspaces';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';

/**
 * A message just committed (never announced before its commit): what the notifications feature needs
 * to decide whom to tell. Published once per stored message (a resent clientId publishes nothing).
 */
export type MessageCreated =
  | {
      kind: 'channel';
      messageId: string;
      workspaceId: string;
      channelId: string;
      parentId: string | null;
      senderId: string;
      content: string;
    }
  | { kind: 'direct'; messageId: string; senderId: string; receiverId: string; content: string };

export interface NewUser {
  id: string;
  email: string;
}

/** Invitations just written or resent (one workspace, one inviter), for their mails and notifications. */
export interface InvitationsSent {
  workspaceName: string;
  inviter: { id: string; email: string; firstName: string; lastName: string };
  invitations: ReadonlyArray<{
    id: string;
    email: string;
    role: WorkspaceRole;
    expiresAt: Date;
    /** When it was (re)sent: the date of its notification. */
    createdAt: Date;
  }>;
}

/**
 * Every in-process event of one app instance and its payload. Membership and session events are
 * published after their commit so the real-time layer acts on open connections at once; they stay
 * in this process, so with several nodes each subscriber relies on its own periodic check (or the
 * Socket.IO adapter) for changes made elsewhere.
 */
export interface AppEvents {
  /** Delivered from the event outbox (events/event-outbox.ts), so a crash after commit loses none. */
  messageCreated: MessageCreated;
  memberAdded: { workspaceId: string; userId: string; role: WorkspaceRole };
  roleChanged: { workspaceId: string; userId: string; role: WorkspaceRole; previousRole: WorkspaceRole };
  memberRemoved: { workspaceId: string; userId: string };
  workspaceDeleted: { workspaceId: string; userIds: string[]; channelIds: string[] };
  channelDeleted: { workspaceId: string; channelId: string };
  /**
   * A channel was renamed, re-described, given a topic, archived or unarchived, or someone joined, left,
   * was added or removed (after the commit). The chat feature announces each change in the channel
   * (a system message, in order) and pushes it live; `lostAccess` are people who can no longer read it
   * (their sockets leave its room), `concerned` people whose sidebar changes (joined, left, added).
   */
  channelChanged: {
    workspaceId: string;
    channelId: string;
    actorId: string;
    changes: ChannelChange[];
    concerned: string[];
    lostAccess: string[];
  };
  sessionRevoked: { sessionId: string };
  /** Inside the workspace-creation transaction (`db` is it): the tasks feature adds the workspace's first board. */
  workspaceCreated: { workspaceId: string; createdBy: string; db: Db };
  /** Inside the signup transaction (`db` is it): a failing subscriber rolls the signup back. */
  userCreated: { user: NewUser; db: Db };

  // Inside the writer's transaction (`db` is it, published with emitStrict): the mail feature queues
  // each mail in its outbox there, so the mail exists exactly when the change does (decision 0008).
  // The writer calls `ctx.mail.wake()` after its commit.
  /** A verification link was issued (sign-up, resend). */
  verificationIssued: { db: Db; to: string; firstName: string; token: string };
  /** A password-reset link was issued. */
  passwordResetIssued: { db: Db; to: string; firstName: string; token: string };
  /** A link confirming a new address was issued (`to` is the new address). */
  emailChangeRequested: { db: Db; to: string; firstName: string; oldEmail: string; token: string };
  /** The account moved from `oldEmail` to `newEmail` (the old address is told). */
  emailChanged: { db: Db; oldEmail: string; newEmail: string; firstName: string };
  /** Invitations were written or resent: their mails and in-app notifications are written with them. */
  invitationsSent: InvitationsSent & { db: Db };
  /** After the commit of `invitationsSent`: their notifications are pushed to open tabs. */
  invitationsCommitted: { invitationIds: string[] };
  /**
   * After the commit: `userId`'s read mark of a direct conversation moved up to `seq`. The
   * notifications feature marks the direct-message notifications it covers read.
   */
  directRead: { userId: string; conversationId: string; seq: number };
  /** A 1:1 call rang out unanswered (published by the node that rang it): the callee is told. */
  callMissed: { calleeId: string; callerId: string };
}

export type EventName = keyof AppEvents;
type Handler<K extends EventName> = (payload: AppEvents[K]) => void | Promise<void>;

/** The typed event bus of one app instance (two apps in one process share nothing). */
export class EventBus {
  private readonly handlers = new Map<EventName, Set<Handler<never>>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  /** Subscribes; returns what unsubscribes. */
  on<K extends EventName>(name: K, handler: Handler<K>): () => void {
    let set = this.handlers.get(name);
    if (!set) {
      set = new Set();
      this.handlers.set(name, set);
    }
    set.add(handler as Handler<never>);
    return () => {
      set.delete(handler as Handler<never>);
    };
  }

  /** How many subscribers `name` has (tests check that closing an app unsubscribes). */
  count(name: EventName): number {
    return this.handlers.get(name)?.size ?? 0;
  }

  /**
   * Calls every subscriber at once (synchronously, in subscription order) and resolves when all have
   * settled. A failing subscriber is logged: it must never turn a committed change into an error.
   */
  async emit<K extends EventName>(name: K, payload: AppEvents[K]): Promise<void> {
    const running: Promise<void>[] = [];
    for (const handler of this.list(name)) {
      try {
        const result = handler(payload);
        if (result) running.push(result.catch((err: unknown) => this.failed(name, err)));
      } catch (err) {
        this.failed(name, err);
      }
    }
    await Promise.all(running);
  }

  /** Awaits each subscriber in turn and lets a failure through (for events inside a transaction). */
  async emitStrict<K extends EventName>(name: K, payload: AppEvents[K]): Promise<void> {
    for (const handler of this.list(name)) await handler(payload);
  }

  /** Drops every subscription (app close). */
  clear() {
    this.handlers.clear();
  }

  private list<K extends EventName>(name: K): Handler<K>[] {
    return [...(this.handlers.get(name) ?? [])] as Handler<K>[];
  }

  private failed(name: EventName, err: unknown) {
    this.log.error({ err, event: name }, 'event subscriber failed');
  }
}
