import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { lockDataDir } from './db/data-dir-lock.ts';

const config = loadConfig();
// The lock is only needed for embedded PGlite; PostgreSQL handles concurrent servers itself.
const unlock = config.DATABASE_URL ? () => {} : lockDataDir(config.DATA_DIR);
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR }).catch(
  (err) => {
    unlock();
    throw err;
  },
);
const { app } = await buildApp({ config, database });
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
