// The embedded database on its own thread (db/pglite-thread.ts starts it): PGlite runs PostgreSQL
// compiled to WebAssembly synchronously, file writes included, so on the main thread every statement
// stalls every socket. Here it runs beside the event loop. Only erasable TypeScript and no imports of
// our own: Node runs this file as it is (from the sources) or bundled (apps/server/build.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, parse, protocol } from '@electric-sql/pglite';
import type { WorkerReply, WorkerRequest, WorkerStart } from './pglite-thread.ts';

const start = workerData as WorkerStart;
const port = parentPort;
if (!port) throw new Error('pglite-worker runs as a worker thread');

/** A database error as plain data: `code`, `constraint` and the rest survive the trip to the main thread. */
function plain(err: unknown) {
  if (!(err instanceof Error)) return { message: String(err) };
  const fields: Record<string, unknown> = { message: err.message, name: err.name };
  for (const [key, value] of Object.entries(err)) {
    if (typeof value === 'string' || typeof value === 'number' || value === undefined) fields[key] = value;
  }
  return fields;
}

const reply = (message: WorkerReply) => port.postMessage(message);

const db = await PGlite.create(start.dataDir, {
  ...(start.template ? { loadDataDir: new Blob([start.template]) } : {}),
  // PGlite's 128 MB of shared buffers live in its WebAssembly memory, on top of the OS page cache
  // that holds the same files, and PostgreSQL touches all of them at start: 16 MB keeps a team's hot
  // pages and saves ~170 MiB of resident memory (docs/performance.md, "Idle memory").
  postgresqlconf: ['shared_buffers = 16MB'],
});

/** The protocol messages as one buffer, in order. */
function concat(parts: Uint8Array[]) {
  const whole = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}

/** Named statements (db/prepared.ts) parsed so far: the types of their parameters. */
const parameterTypes = new Map<string, number[]>();

/**
 * Result parsers: PGlite's, with the types asked to stay text (what drizzle asks for dates,
 * intervals and numerics) kept as text. Merged once per set of types: PGlite's `query` merges its
 * ~320 parsers into a new object on every call when given any, which was 60-100 µs of each
 * statement (docs/performance.md, "Session 26"). The sets come from the app's code (drizzle's one
 * set, or none), not from users.
 */
const parserSets = new Map<string, typeof db.parsers>();
const keepText = (text: string) => text;
function parsersKeepingText(rawTypes: number[]) {
  const key = rawTypes.join(',');
  let parsers = parserSets.get(key);
  if (!parsers) {
    parsers = { ...db.parsers, ...Object.fromEntries(rawTypes.map((type) => [type, keepText])) };
    parserSets.set(key, parsers);
  }
  return parsers;
}

type Statement = Extract<WorkerRequest, { op: 'query' }>;

/**
 * Runs one statement with the extended protocol, as PGlite's `query` does (its locks, serializers
 * and result parsing) in two passes of PGlite's main loop instead of six: parse and describe (the
 * parameters' types), then bind, describe, execute and sync as one buffer. A named statement
 * (db/prepared.ts) is parsed and planned once and then only bound and executed: planning was most
 * of what storing a message cost (docs/performance.md, "Session 20"). An error comes back after
 * its Sync has run, so the session is ready for the next statement. Inside a transaction the
 * transaction already holds PGlite; outside, the statement waits for any open one to end.
 */
function runStatement(statement: Statement, inTransaction: boolean) {
  const { sql: text, params, name = '' } = statement;
  const exec = async (...messages: Uint8Array[]) =>
    (await db.execProtocol(concat(messages), { syncToFs: false })).messages;
  const run = async () => {
    let synced = false;
    let results: Awaited<ReturnType<typeof exec>> = [];
    try {
      let types = name === '' ? undefined : parameterTypes.get(name);
      if (types === undefined) {
        types = parse.parseDescribeStatementResults(
          await exec(
            protocol.serialize.parse({ name, text }),
            protocol.serialize.describe({ type: 'S', name }),
          ),
        );
        if (name !== '') parameterTypes.set(name, types);
      }
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serialize = db.serializers[types[i] ?? 0];
        return serialize ? serialize(value) : String(value);
      });
      synced = true;
      results = await exec(
        protocol.serialize.bind({ statement: name, values }),
        protocol.serialize.describe({ type: 'P' }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      );
    } finally {
      // Parsing (or a parameter's serializer) failed before the buffer with its Sync went in.
      if (!synced) await exec(protocol.serialize.sync());
    }
    if (!inTransaction) await db.syncToFs();
    return parse.parseResults(results, parsersKeepingText(statement.rawTypes), {
      rowMode: statement.rowMode,
    })[0];
  };
  return inTransaction
    ? db._runExclusiveQuery(run)
    : db._runExclusiveTransaction(() => db._runExclusiveQuery(run));
}

/** Open transactions by id: the callback PGlite runs them in waits for the main thread's end. */
const open = new Map<number, { end: (commit: boolean) => void }>();
/** Each open transaction's run, settled once its COMMIT or ROLLBACK has run. */
const settled = new Map<number, Promise<void>>();
let nextTx = 1;
const ROLLBACK = Symbol('rollback');

port.on('message', async (request: WorkerRequest) => {
  const { id } = request;
  try {
    switch (request.op) {
      case 'query': {
        if (request.tx !== undefined && !open.has(request.tx)) throw new Error('transaction is not open');
        reply({ id, ok: true, result: await runStatement(request, request.tx !== undefined) });
        return;
      }
      case 'begin': {
        const txId = nextTx++;
        let end: (commit: boolean) => void = () => {};
        const ended = new Promise<void>((resolve, reject) => {
          end = (commit) => (commit ? resolve() : reject(ROLLBACK));
        });
        let began = false;
        // Settles once COMMIT (or ROLLBACK) has run; the 'end' request answers then.
        const done = db.transaction(async () => {
          began = true;
          open.set(txId, { end });
          reply({ id, ok: true, result: txId });
          await ended;
        });
        settled.set(txId, done);
        // BEGIN itself failed: answer the 'begin' request with its error.
        done.catch((err) => {
          if (began) return;
          settled.delete(txId);
          reply({ id, ok: false, error: plain(err) });
        });
        return;
      }
      case 'end': {
        const entry = open.get(request.tx);
        const done = settled.get(request.tx);
        if (!entry || !done) throw new Error('transaction is not open');
        open.delete(request.tx);
        settled.delete(request.tx);
        entry.end(request.commit);
        try {
          await done;
        } catch (err) {
          if (err !== ROLLBACK) throw err;
        }
        reply({ id, ok: true, result: null });
        return;
      }
      case 'close': {
        await db.close();
        reply({ id, ok: true, result: null });
        return;
      }
    }
  } catch (err) {
    reply({ id, ok: false, error: plain(err) });
  }
});

// No "started" message: requests sent meanwhile waited in this port's queue and are answered now.
