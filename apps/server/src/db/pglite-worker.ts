// The embedded database on its own thread (db/pglite-thread.ts starts it): PGlite runs PostgreSQL
// compiled to WebAssembly synchronously, file writes included, so on the main thread every statement
// stalls every socket. Here it runs beside the event loop. Only erasable TypeScript and no imports of
// our own: Node runs this file as it is (from the sources) or bundled (apps/server/build.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, parse, protocol, type Transaction } from '@electric-sql/pglite';
import type { WorkerReply, WorkerRequest, WorkerStart } from './pglite-thread.ts';

const start = workerData as WorkerStart;
const port = parentPort;
if (!port) throw new Error('pglite-worker runs as a worker thread');

/** Result parsers that keep a type's text as it is (what drizzle asks for dates, intervals, numerics). */
const raw = (text: string) => text;
const parsersOf = (rawTypes: number[]) => Object.fromEntries(rawTypes.map((type) => [type, raw]));

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

/** Named statements (db/prepared.ts) parsed so far: the types of their parameters. */
const parameterTypes = new Map<string, number[]>();

/**
 * Runs a named statement: parsed and planned once, then only bound and executed. PGlite's `query`
 * parses and plans every time, which was most of what storing a message cost (docs/performance.md,
 * "Session 20"). The steps, locks, serializers and result parsing are those of PGlite's own `query`.
 */
function queryPrepared(
  name: string,
  text: string,
  params: unknown[],
  options: { rowMode: 'array' | 'object'; parsers: Record<number, (text: string) => string> },
) {
  return db._runExclusiveTransaction(() =>
    db._runExclusiveQuery(async () => {
      const messages: Awaited<ReturnType<typeof db.execProtocol>>['messages'] = [];
      const run = async (message: Uint8Array) => {
        const result = await db.execProtocol(message, { syncToFs: false });
        messages.push(...result.messages);
        return result.messages;
      };
      // Parsed on first use: the statement, and the types of its parameters.
      const parseOnce = async () => {
        await run(protocol.serialize.parse({ name, text }));
        const types = parse.parseDescribeStatementResults(
          await run(protocol.serialize.describe({ type: 'S', name })),
        );
        parameterTypes.set(name, types);
        return types;
      };
      try {
        const types = parameterTypes.get(name) ?? (await parseOnce());
        const values = params.map((value, i) => {
          if (value === null || value === undefined) return null;
          const serialize = db.serializers[types[i] ?? 0];
          return serialize ? serialize(value) : String(value);
        });
        await run(protocol.serialize.bind({ statement: name, values }));
        await run(protocol.serialize.describe({ type: 'P' }));
        await run(protocol.serialize.execute({}));
      } finally {
        await run(protocol.serialize.sync());
      }
      await db.syncToFs();
      return parse.parseResults(messages, db.parsers, options)[0];
    }),
  );
}

/** Open transactions by id: the callback PGlite runs them in waits for the main thread's end. */
const open = new Map<number, { tx: Transaction; end: (commit: boolean) => void }>();
/** Each open transaction's run, settled once its COMMIT or ROLLBACK has run. */
const settled = new Map<number, Promise<void>>();
let nextTx = 1;
const ROLLBACK = Symbol('rollback');

port.on('message', async (request: WorkerRequest) => {
  const { id } = request;
  try {
    switch (request.op) {
      case 'query': {
        const options = { rowMode: request.rowMode, parsers: parsersOf(request.rawTypes) };
        if (request.name !== undefined && request.tx === undefined) {
          reply({
            id,
            ok: true,
            result: await queryPrepared(request.name, request.sql, request.params, options),
          });
          return;
        }
        const target = request.tx === undefined ? db : open.get(request.tx)?.tx;
        if (!target) throw new Error('transaction is not open');
        const result = await target.query(request.sql, request.params, options);
        reply({ id, ok: true, result });
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
        const done = db.transaction(async (tx) => {
          began = true;
          open.set(txId, { tx, end });
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
