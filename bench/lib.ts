import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Prints a table and writes it, with the machine it ran on, to bench/results/<name>.json. */
export function report(name: string, rows: Record<string, string | number>[]) {
  console.log(`\n${name}`);
  console.table(rows);
  const dir = join(repoRoot, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  // The load average says how much of the machine the run really had (CI and others share it).
  const machine = {
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    loadavg: loadavg().map((l) => Math.round(l * 10) / 10),
  };
  writeFileSync(
    join(dir, `${name}.json`),
    JSON.stringify({ name, at: new Date().toISOString(), node: process.version, machine, rows }, null, 2),
  );
}

// -- Accounts that may join workspaces --------------------------------------------------------------

const parsedMail = new Map<string, { to: string[]; text: string }>();

/**
 * Verifies `email` with the link of its verification mail, read where a server without SMTP_URL
 * writes its mail (DATA_DIR/outbox/*.eml): only a verified address can accept an invitation.
 */
export async function verifyFromOutbox(baseUrl: string, dataDir: string, email: string, timeoutMs = 60_000) {
  const { simpleParser } = await import('mailparser');
  const { readdir, readFile } = await import('node:fs/promises');
  const outbox = join(dataDir, 'outbox');
  const until = Date.now() + timeoutMs;
  for (;;) {
    for (const name of (await readdir(outbox).catch(() => [] as string[])).filter((n) =>
      n.endsWith('.eml'),
    )) {
      const file = join(outbox, name);
      let mail = parsedMail.get(file);
      if (!mail) {
        const parsed = await simpleParser(await readFile(file));
        const to = (Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : []).flatMap((a) =>
          a.value.map((v) => (v.address ?? '').toLowerCase()),
        );
        mail = { to, text: parsed.text ?? '' };
        parsedMail.set(file, mail);
      }
      if (!mail.to.includes(email.toLowerCase())) continue;
      const link = mail.text.match(/https?:\/\/[^\s<>"']+\/verify-email\?[^\s<>"']+/)?.[0];
      const token = link ? new URL(link).searchParams.get('token') : null;
      if (!token) continue;
      const res = await fetch(`${baseUrl}/api/account/verify-email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      if (!res.ok) throw new Error(`verifying ${email}: ${res.status} ${await res.text()}`);
      return;
    }
    if (Date.now() > until) throw new Error(`no verification mail to ${email}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The signed-in user (`token`) accepts their invitation to the workspace (its id): how anyone joins. */
export async function acceptInvitation(baseUrl: string, token: string, workspaceId: string) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const listed = await fetch(`${baseUrl}/api/invitations`, { headers });
  if (!listed.ok) throw new Error(`invitations: ${listed.status} ${await listed.text()}`);
  const mine = (await listed.json()) as Array<{ _id: string; workspace: { _id: string } }>;
  const invitation = mine.find((i) => i.workspace._id === workspaceId);
  if (!invitation) throw new Error(`no invitation to ${workspaceId}`);
  const accepted = await fetch(`${baseUrl}/api/invitations/${invitation._id}/accept`, {
    method: 'POST',
    headers,
    body: '{}',
  });
  if (!accepted.ok) throw new Error(`accepting: ${accepted.status} ${await accepted.text()}`);
}
