import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, stopProcess, tcpOpen, waitFor } from './local-services.ts';

/**
 * Debian's Janus (package `janus`) on loopback with a configuration made up for one run: the
 * WebSocket API and the admin API on free ports, a random admin secret and VideoRoom admin key,
 * token authentication on, string room ids, and only the VideoRoom plugin and the WebSockets
 * transport loaded. The server tests and the SFU journey start one each; `npm run janus` starts one
 * for a developer and prints the environment that points Cohort at it (docs/calls.md).
 */

export interface LocalJanus {
  /** JANUS_URL, JANUS_ADMIN_URL, JANUS_ADMIN_SECRET and JANUS_ROOM_ADMIN_KEY for Cohort. */
  env: Record<'JANUS_URL' | 'JANUS_ADMIN_URL' | 'JANUS_ADMIN_SECRET' | 'JANUS_ROOM_ADMIN_KEY', string>;
  log: () => string;
  stop: () => Promise<void>;
}

export const hasJanus = () => spawnSync('sh', ['-c', 'command -v janus']).status === 0;

/** Where Debian installs Janus's plugins and transports (`dpkg -L janus`). */
function janusLibDir(): string {
  for (const dir of [
    '/usr/lib/x86_64-linux-gnu/janus',
    '/usr/lib/aarch64-linux-gnu/janus',
    '/usr/lib/janus',
  ]) {
    if (existsSync(join(dir, 'plugins', 'libjanus_videoroom.so'))) return dir;
  }
  const found = spawnSync(
    'sh',
    ['-c', 'dpkg -L janus 2>/dev/null | grep "/plugins/libjanus_videoroom.so$"'],
    {
      encoding: 'utf8',
    },
  ).stdout.trim();
  if (found) return join(found, '..', '..');
  throw new Error('Janus VideoRoom plugin not found (Debian package janus)');
}

export async function startJanus(): Promise<LocalJanus> {
  const dir = mkdtempSync(join(tmpdir(), 'cohort-janus-'));
  const lib = janusLibDir();
  for (const [kind, file] of [
    ['plugins', 'libjanus_videoroom.so'],
    ['transports', 'libjanus_websockets.so'],
  ] as const) {
    mkdirSync(join(dir, kind));
    symlinkSync(join(lib, kind, file), join(dir, kind, file));
  }
  const [wsPort, adminPort] = [await freePort(), await freePort()];
  const adminSecret = randomBytes(18).toString('base64url');
  const roomAdminKey = randomBytes(18).toString('base64url');
  // Each run takes its own slice of RTP ports, so two Janus processes (two test files) never clash.
  const rtpStart = 20000 + (wsPort % 200) * 100;
  writeFileSync(
    join(dir, 'janus.jcfg'),
    `general: {
  configs_folder = "${dir}"
  plugins_folder = "${dir}/plugins"
  transports_folder = "${dir}/transports"
  events_folder = "${dir}/none"
  loggers_folder = "${dir}/none"
  debug_level = 3
  admin_secret = "${adminSecret}"
  token_auth = true
  session_timeout = 60
}
media: { rtp_port_range = "${rtpStart}-${rtpStart + 99}" }
nat: { nice_debug = false }
`,
  );
  writeFileSync(
    join(dir, 'janus.transport.websockets.jcfg'),
    `general: { json = "plain" ws = true ws_port = ${wsPort} ws_ip = "127.0.0.1" }
admin: { admin_ws = true admin_ws_port = ${adminPort} admin_ws_ip = "127.0.0.1" }
`,
  );
  writeFileSync(
    join(dir, 'janus.plugin.videoroom.jcfg'),
    `general: { admin_key = "${roomAdminKey}" string_ids = true }\n`,
  );
  let output = '';
  const child: ChildProcess = spawn('janus', ['-F', dir, '-C', join(dir, 'janus.jcfg'), '-o'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => {
    output = (output + d).slice(-20_000);
  });
  child.stderr?.on('data', (d) => {
    output = (output + d).slice(-20_000);
  });
  const log = () => output;
  const stop = async () => {
    await stopProcess(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor('Janus', async () => (await tcpOpen(wsPort)) && (await tcpOpen(adminPort)), child, log);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    env: {
      JANUS_URL: `ws://127.0.0.1:${wsPort}`,
      JANUS_ADMIN_URL: `ws://127.0.0.1:${adminPort}`,
      JANUS_ADMIN_SECRET: adminSecret,
      JANUS_ROOM_ADMIN_KEY: roomAdminKey,
    },
    log,
    stop,
  };
}

// `npm run janus`: a local Janus for development, until Ctrl+C.
if (import.meta.url === `file://${process.argv[1]}`) {
  const janus = await startJanus();
  console.log('Janus is running. Start Cohort with:\n');
  for (const [k, v] of Object.entries(janus.env)) console.log(`  export ${k}=${v}`);
  const quit = () => void janus.stop().then(() => process.exit(0));
  process.on('SIGINT', quit);
  process.on('SIGTERM', quit);
}
