import module from 'node:module';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { lockDataDir } from './db/data-dir-lock.ts';

// V8 keeps the server's compiled code on disk (the OS temp folder; NODE_COMPILE_CACHE moves it,
// NODE_DISABLE_COMPILE_CACHE=1 turns it off): a start after the first skips compiling the modules
// imported below, and the database thread's too (a worker reads the variable). Node 22.1 and later.
const compileCache = (module as { enableCompileCache?: () => { directory?: string } }).enableCompileCache?.();
if (compileCache?.directory) process.env.NODE_COMPILE_CACHE ??= compileCache.directory;

const config = loadConfig();
// The lock is only needed for embedded PGlite; PostgreSQL handles concurrent servers itself.
const unlock = config.DATABASE_URL ? () => {} : lockDataDir(config.DATA_DIR);
const failed = (err: unknown) => {
  unlock();
  throw err;
};
// The database opens while the server's modules load and its routes are built: a new cluster is
// unpacked, PGlite starts on its thread and the migrations run meanwhile (`early`; queries made
// before they are done wait for them). These steps used to take turns (issue 21, "Cold start").
const opening = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, early: true });
opening.catch(() => {}); // awaited below; this only keeps an early failure from counting as unhandled
const { buildApp } = await import('./app.ts');
const database = await opening.catch(failed);
const { app } = await buildApp({ config, database }).catch(failed);
await database.migrated.catch(failed);
app.log.info(
  { database: database.kind, ...(database.created ? { created: database.created } : {}) },
  'database open',
);

let closing = false;
// Responses finished during shutdown close their keep-alive connection, so close() need not wait for it.
app.addHook('onSend', async (_request, reply) => {
  if (closing) reply.header('connection', 'close');
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Stop accepting, let in-flight requests finish, close sockets and stop the drainers (their
    // onClose hooks), and only then the database: Fastify runs onClose hooks last-registered first,
    // so a hook added here closed the database under a mail or event still being recorded.
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    app
      .close()
      .then(async () => {
        await database.close();
        unlock();
      })
      .then(
        () => {
          clearTimeout(force);
          process.exit(0);
        },
        (err) => {
          app.log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
  });
}

await app.listen({ port: config.PORT, host: config.HOST });
