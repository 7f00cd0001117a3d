import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';

/**
 * The mail the e2e server sent. Without SMTP_URL the server writes each mail as an .eml file under
 * DATA_DIR/outbox (playwright.config.ts hands that directory over as COHORT_E2E_DATA_DIR); a journey
 * reads its mail there, as a person reads their inbox.
 */
export interface CapturedMail {
  to: string;
  kind: string;
  subject: string;
  text: string;
  /** Every http(s) link in the text part, in order. */
  links: string[];
  file: string;
}

function outboxDir(dataDir = process.env.COHORT_E2E_DATA_DIR) {
  if (!dataDir) throw new Error('COHORT_E2E_DATA_DIR is not set (run through e2e/playwright.config.ts)');
  return join(dataDir, 'outbox');
}

const parsed = new Map<string, CapturedMail>();

async function readMail(file: string): Promise<CapturedMail> {
  const known = parsed.get(file);
  if (known) return known;
  const mail = await simpleParser(await readFile(file));
  const to = (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [])
    .flatMap((a) => a.value.map((v) => v.address ?? ''))
    .join(', ')
    .toLowerCase();
  const text = mail.text ?? '';
  const captured: CapturedMail = {
    to,
    kind: String(mail.headers.get('x-cohort-kind') ?? ''),
    subject: mail.subject ?? '',
    text,
    links: text.match(/https?:\/\/[^\s<>"']+/g) ?? [],
    file,
  };
  parsed.set(file, captured);
  return captured;
}

/** Every mail sent to `to` so far, oldest first (file names start with the time they were written). */
export async function listMail(to: string, dataDir?: string): Promise<CapturedMail[]> {
  const dir = outboxDir(dataDir);
  const names = await readdir(dir).catch(() => [] as string[]);
  const all = await Promise.all(
    names
      .filter((n) => n.endsWith('.eml'))
      .sort()
      .map((n) => readMail(join(dir, n))),
  );
  return all.filter((m) => m.to === to.toLowerCase());
}

/**
 * The newest mail to `to` (optionally of a kind — verify_email, reset_password, change_email,
 * invitation… — or with a subject containing a text), polling until it arrives. `after`: mail already
 * seen (from listMail) does not count. `dataDir`: the DATA_DIR of a server a journey started itself.
 */
export async function waitForMail(
  to: string,
  opts: {
    kind?: string;
    subjectIncludes?: string;
    timeoutMs?: number;
    after?: CapturedMail[];
    dataDir?: string;
  } = {},
): Promise<CapturedMail> {
  const until = Date.now() + (opts.timeoutMs ?? 20_000);
  const seen = new Set(opts.after?.map((m) => m.file));
  for (;;) {
    const match = (await listMail(to, opts.dataDir))
      .filter((m) => !seen.has(m.file))
      .filter((m) => opts.kind === undefined || m.kind === opts.kind)
      .filter((m) => opts.subjectIncludes === undefined || m.subject.includes(opts.subjectIncludes))
      .at(-1);
    if (match) return match;
    if (Date.now() > until) {
      throw new Error(
        `no mail to ${to}${opts.kind ? ` of kind ${opts.kind}` : ''} arrived in ${opts.timeoutMs ?? 20_000} ms`,
      );
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** The one link of a mail that points at `path` (e.g. '/verify-email'). */
export function linkTo(mail: CapturedMail, path: string): string {
  const link = mail.links.find((l) => new URL(l).pathname === path);
  if (!link) throw new Error(`mail "${mail.subject}" has no link to ${path}: ${mail.links.join(', ')}`);
  return link;
}
