import { createServer, type Socket, connect as tcpConnect } from 'node:net';

/**
 * A switchable TCP forwarder standing in for a load balancer: clients keep one address while the
 * node behind it changes (failover). Existing connections stay on their node until it drops them.
 */
export async function startProxy(targetPort: number) {
  const state = { targetPort };
  const open = new Set<Socket>();
  const server = createServer((inbound) => {
    const outbound = tcpConnect(state.targetPort, '127.0.0.1');
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
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
