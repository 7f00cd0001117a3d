import { Worker } from 'node:worker_threads';
import { pgliteWorkerFile } from '../paths.ts';
import { preparedNameOf } from './prepared.ts';

/** What the worker (db/pglite-worker.ts) is started with. */
export interface WorkerStart {
  dataDir: string;
  /** A pre-migrated template to load into a new cluster (PGlite's loadDataDir), as bytes. */
  template?: ArrayBuffer;
}

export type WorkerRequest =
  | {
      id: number;
      op: 'query';
      sql: string;
      params: unknown[];
      rowMode: 'array' | 'object';
      /** Types whose text is kept as it is (drizzle's parsers for dates, intervals and numerics). */
      rawTypes: number[];
      tx?: number;
      /** Run as a named statement, parsed and planned once (db/prepared.ts; outside transactions). */
      name?: string;
    }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'close' };

export type WorkerReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: Record<string, unknown> };

/** A request before it gets its id (each member of the union keeps its own fields). */
type Unnumbered = WorkerRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, unknown>;
}

/** The part of PGlite's client that drizzle (and db/client.ts) use: queries and transactions. */
export interface ThreadQueryable {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<{ rows: T[] }>;
}
export interface PGliteThread extends ThreadQueryable {
  transaction<T>(run: (tx: ThreadQueryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** An error from the worker, rebuilt with its fields (`code` is what db-errors.ts reads). */
function rebuild(fields: Record<string, unknown>): Error {
  const err = new Error(String(fields.message ?? 'database error'));
  Object.assign(err, fields);
  return err;
}

/**
 * Starts PGlite on a worker thread (see pglite-worker.ts for why) and answers a client with PGlite's
 * query/transaction API, so drizzle's PGlite driver and everything above it work unchanged. Requests
 * are answered in the order PGlite runs them; a transaction holds the database until it ends, as
 * in-process. The client is returned at once: requests sent while PGlite starts wait in the
 * thread's message queue, and fail if it cannot start.
 */
export function startPGliteThread(start: WorkerStart): PGliteThread {
  const worker = new Worker(pgliteWorkerFile, {
    workerData: start,
    // PGlite's own JavaScript allocates little: a young generation of 4 MiB instead of one sized for
    // this machine's memory is ~10 MiB less resident (docs/performance.md, "Idle memory").
    resourceLimits: { maxYoungGenerationSizeMb: 4 },
    ...(start.template ? { transferList: [start.template] } : {}),
    // Sources need type stripping: on by default from Node 22.18, a flag before.
    execArgv:
      pgliteWorkerFile.endsWith('.ts') && !(process.features as { typescript?: unknown }).typescript
        ? ['--experimental-strip-types']
        : [],
  });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let failure: Error | undefined;

  worker.on('message', (message: WorkerReply) => {
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.ok) waiter.resolve(message.result);
    else waiter.reject(rebuild(message.error));
  });
  const fail = (err: Error) => {
    // The database is gone with its thread: everything waiting, and everything after, fails as a
    // database shutdown (57P01: answered 503 like a PostgreSQL that went away).
    failure = Object.assign(new Error(`embedded database stopped: ${err.message}`), { code: '57P01' });
    for (const waiter of pending.values()) waiter.reject(failure);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`worker exited with code ${code}`)));

  const send = (request: Unnumbered) => {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    return new Promise<unknown>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });
  };
  const queryOn =
    (tx: number | undefined) =>
    async <T>(sql: string, params: unknown[] = [], options: QueryOptions = {}) => {
      const name = tx === undefined ? preparedNameOf(sql) : undefined;
      return (await send({
        op: 'query',
        sql,
        params,
        rowMode: options.rowMode ?? 'object',
        rawTypes: Object.keys(options.parsers ?? {}).map(Number),
        ...(tx === undefined ? {} : { tx }),
        ...(name === undefined ? {} : { name }),
      })) as { rows: T[] };
    };

  return {
    query: queryOn(undefined),
    async transaction(run) {
      const tx = (await send({ op: 'begin' })) as number;
      let result: Awaited<ReturnType<typeof run>>;
      try {
        result = await run({ query: queryOn(tx) });
      } catch (err) {
        await send({ op: 'end', tx, commit: false }).catch(() => {});
        throw err;
      }
      await send({ op: 'end', tx, commit: true });
      return result;
    },
    async close() {
      if (!failure) await send({ op: 'close' });
      failure = Object.assign(new Error('embedded database closed'), { code: '57P01' });
      worker.removeAllListeners('exit');
      await worker.terminate();
    },
  };
}
