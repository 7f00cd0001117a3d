import type { ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';

/** Small helpers for tests and tools that start their own local services (Janus, coturn, a Cohort server). */

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export const tcpOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

/** Waits (30 s at most) until `check` passes; fails at once, with the service's log, if it exits. */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  child: ChildProcess,
  log: () => string,
) {
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${what} exited early:\n${log()}`);
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not start:\n${log()}`);
}

/** SIGTERM, then SIGKILL if it is still there after 3 s. */
export async function stopProcess(child: ChildProcess | undefined) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}
