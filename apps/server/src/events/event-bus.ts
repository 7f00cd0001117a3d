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
  sessionRevoked: { sessionId: string };
  /** Inside the signup transaction (`db` is it): a failing subscriber rolls the signup back. */
  userCreated: { user: NewUser; db: Db };
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
