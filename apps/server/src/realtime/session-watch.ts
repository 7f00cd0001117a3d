import { sql } from 'drizzle-orm';
import type { Server, Socket } from 'socket.io';
import type { AppContext } from '../context.ts';
import { uuidArray } from '../db/any-uuid.ts';
import { sessions } from '../db/schema.ts';
import type { RealtimeOptions } from './options.ts';
import type { SocketData } from './socket-server.ts';

const BATCH = 500;

/**
 * Sockets live longer than the session check of their handshake. Each node re-checks the sessions
 * of its own sockets every `sessionCheckMs` (one query per batch of session ids) and disconnects
 * those revoked or expired; a logout on this node disconnects that session's sockets at once.
 * Every node watches only its own sockets, so nothing here needs the adapter.
 */
export function watchSessions(ctx: AppContext, io: Server, options: RealtimeOptions) {
  const localSockets = () => {
    const bySession = new Map<string, Socket[]>();
    for (const nsp of io._nsps.values()) {
      for (const socket of nsp.sockets.values()) {
        const sessionId = (socket.data as Partial<SocketData>).user?.sessionId;
        if (!sessionId) continue;
        const list = bySession.get(sessionId);
        if (list) list.push(socket);
        else bySession.set(sessionId, [socket]);
      }
    }
    return bySession;
  };

  const check = async () => {
    const bySession = localSockets();
    const ids = [...bySession.keys()];
    const now = ctx.now();
    for (let i = 0; i < ids.length; i += BATCH) {
      const batch = ids.slice(i, i + BATCH);
      // Only the dead sessions come back (almost always none), and the ids travel as one array
      // parameter: at thousands of sockets, building and returning every live id every 2 s showed
      // up in the server's profile (bench/load.ts).
      const result = await ctx.db.execute(sql`
        select b.id from unnest(${uuidArray(batch)}) as b(id)
        where not exists (
          select 1 from ${sessions} s
          where s.id = b.id and s.revoked_at is null and s.expires_at > ${now.toISOString()}::timestamptz
        )`);
      for (const { id } of (result as unknown as { rows: { id: string }[] }).rows) {
        for (const socket of bySession.get(id) ?? []) socket.disconnect(true);
      }
    }
  };

  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    check()
      .catch((err) => ctx.log.error({ err }, 'socket session check failed'))
      .finally(() => {
        running = false;
      });
  }, options.sessionCheckMs);
  timer.unref();

  const onRevoked = ({ sessionId }: { sessionId: string }) => {
    for (const socket of localSockets().get(sessionId) ?? []) socket.disconnect(true);
  };
  const unsubscribe = ctx.bus.on('sessionRevoked', onRevoked);

  return () => {
    clearInterval(timer);
    unsubscribe();
  };
}
