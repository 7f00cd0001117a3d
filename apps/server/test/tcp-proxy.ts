import { createServer, type Socket, connect as tcpConnect } from 'node:net';

/**
 * A switchable TCP forwarder standing in for a load balancer: clients keep one address while the
 * node behind it changes (failover). Existing connections stay on their node until it drops them.
 * It also stands in for a service going away (a PostgreSQL restart, a Redis outage): `cut()` drops
 * every connection and refuses new ones until `restore()`.
 */
export async function startProxy(targetPort: number, targetHost = '127.0.0.1') {
  const state = { targetPort, down: false };
  const open = new Set<Socket>();
  const server = createServer((inbound) => {
    if (state.down) {
      inbound.destroy();
      return;
    }
    const outbound = tcpConnect(state.targetPort, targetHost);
    open.add(inbound);
    open.add(outbound);
    inbound.pipe(outbound).pipe(inbound);
    const end = () => {
      inbound.destroy();
      outbound.destroy();
      open.delete(inbound);
      open.delete(outbound);
    };
    inbound.on('error', end).on('close', end);
    outbound.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    switchTo(port: number) {
      state.targetPort = port;
    },
    /** The service "stops": open connections are reset and new ones refused. */
    cut() {
      state.down = true;
      for (const s of open) s.destroy();
    },
    restore() {
      state.down = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
