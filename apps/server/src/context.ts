import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';

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
  /** Features that must react to a new account (pending workspace invitations) register here. */
  onUserCreated: Array<(user: NewUser, db: Db) => Promise<void>>;
}
