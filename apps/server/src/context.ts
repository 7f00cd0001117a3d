import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';

/**
 * A message just committed (never announced before its commit): what the notifications feature needs
 * to decide whom to tell. Emitted once per stored message (a resent clientId emits nothing).
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

/** What every feature receives: configuration, the database and the clock (injected so tests control time). */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  /**
   * Features that must react to a new account register here (inside the signup transaction). Pending
   * invitations deliberately do not: a new account joins nothing until its verified owner accepts.
   */
  onUserCreated: Array<(user: NewUser, db: Db) => Promise<void>>;
  /** Features that react to a committed message (notifications) register here; see chat.events.ts. */
  onMessageCreated: Array<(event: MessageCreated) => Promise<void>>;
  /** The mail outbox drainer: `wake()` after a commit that queued mail sends it now, not at the next poll. */
  mail: { wake(): void };
}
