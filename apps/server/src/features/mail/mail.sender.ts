import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AppContext } from '../../context.ts';
import { PollingDrainer } from '../../db/polling-drainer.ts';
import { mailOutbox } from '../../db/schema.ts';

/** Tries per mail; between them these pauses (a mail is then `failed` and its bodies dropped). */
export const MAIL_MAX_ATTEMPTS = 4;
export const MAIL_RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000];
/** A claimed row stays invisible to other drainers this long (longer than any SMTP timeout below). */
const CLAIM_MS = 5 * 60_000;
const BATCH = 20;

export interface MailSenderOptions {
  /** How often the outbox is polled (besides `wake()`); 0 disables polling (tests drain by hand). */
  pollMs?: number;
}

interface ClaimedMail {
  id: string;
  kind: string;
  toAddress: string;
  subject: string;
  textBody: string | null;
  htmlBody: string | null;
  attempts: number;
}

/**
 * Drains mail_outbox: claims due rows atomically (so two nodes never send one mail twice), sends them
 * through SMTP_URL or, without it, writes each as an .eml file under DATA_DIR/outbox, and records the
 * outcome. A failed send is retried with backoff; it never reaches the request that queued the mail.
 */
export class MailSender extends PollingDrainer {
  private readonly transport: Transporter;
  private readonly toFiles: boolean;

  constructor(
    private readonly ctx: AppContext,
    private readonly opts: MailSenderOptions = {},
  ) {
    super(ctx.log, 'mail outbox', BATCH);
    const url = ctx.config.SMTP_URL;
    this.toFiles = url === undefined;
    this.transport = url
      ? nodemailer.createTransport({
          url,
          // Short enough that a dead server frees the claim long before CLAIM_MS.
          connectionTimeout: 15_000,
          greetingTimeout: 15_000,
          socketTimeout: 60_000,
        } as never)
      : // The RFC 822 bytes, written to disk by deliver().
        nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  /** Where mail goes without SMTP_URL. */
  get outboxDir() {
    return resolve(this.ctx.config.DATA_DIR, 'outbox');
  }

  start() {
    return this.startPolling(this.opts.pollMs ?? 3000);
  }

  /** Stops polling, waits for a send in flight, and closes the SMTP connection. */
  override async stop() {
    await super.stop();
    this.transport.close();
  }

  /** One pass: claims up to BATCH due mails and tries each once. Returns how many were claimed. */
  async drain(): Promise<number> {
    const claimed = await this.claim();
    for (const mail of claimed) await this.attempt(mail);
    return claimed.length;
  }

  /**
   * Claims due rows in one statement: FOR UPDATE SKIP LOCKED keeps a concurrent drainer off the rows
   * being claimed, and locked_until keeps every drainer off them until the send is recorded. The
   * attempt is counted at claim time, so a crash mid-send still uses up a try.
   */
  private async claim(): Promise<ClaimedMail[]> {
    const now = this.ctx.now();
    const until = new Date(now.getTime() + CLAIM_MS);
    const result = await this.ctx.db.execute(sql`
      update ${mailOutbox}
      set locked_until = ${until.toISOString()}::timestamptz, attempts = attempts + 1
      where id in (
        select id from ${mailOutbox}
        where status = 'pending'
          -- New rows carry the database's now(), retries the app clock: due by either (PostgreSQL's
          -- microseconds would otherwise leave a just-queued mail for the next poll).
          and next_attempt_at <= greatest(now(), ${now.toISOString()}::timestamptz)
          and (locked_until is null or locked_until <= ${now.toISOString()}::timestamptz)
        order by next_attempt_at
        limit ${BATCH}
        for update skip locked
      )
      returning id, kind, to_address, subject, text_body, html_body, attempts`);
    const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows;
    return rows.map((r) => ({
      id: String(r.id),
      kind: String(r.kind),
      toAddress: String(r.to_address),
      subject: String(r.subject),
      textBody: r.text_body === null ? null : String(r.text_body),
      htmlBody: r.html_body === null ? null : String(r.html_body),
      attempts: Number(r.attempts),
    }));
  }

  private async attempt(mail: ClaimedMail) {
    const { log } = this.ctx;
    try {
      await this.deliver(mail);
    } catch (err) {
      const error = errorText(err);
      const final = mail.attempts >= MAIL_MAX_ATTEMPTS;
      const delay = MAIL_RETRY_DELAYS_MS[mail.attempts - 1] ?? MAIL_RETRY_DELAYS_MS.at(-1) ?? 60_000;
      await this.ctx.db
        .update(mailOutbox)
        .set(
          final
            ? // Given up: the bodies hold single-use links nobody will receive; do not keep them.
              { status: 'failed', lockedUntil: null, lastError: error, textBody: null, htmlBody: null }
            : {
                lockedUntil: null,
                lastError: error,
                nextAttemptAt: new Date(this.ctx.now().getTime() + delay),
              },
        )
        .where(eq(mailOutbox.id, mail.id));
      if (final) {
        log.warn(
          { mailId: mail.id, kind: mail.kind, to: mail.toAddress, attempts: mail.attempts, error },
          'mail failed: giving up',
        );
      } else {
        log.info(
          { mailId: mail.id, attempts: mail.attempts, error, retryInMs: delay },
          'mail send failed; will retry',
        );
      }
      return;
    }
    // Sent: the bodies hold single-use links, so they are not kept.
    await this.ctx.db
      .update(mailOutbox)
      .set({
        status: 'sent',
        sentAt: this.ctx.now(),
        lockedUntil: null,
        lastError: null,
        textBody: null,
        htmlBody: null,
      })
      .where(eq(mailOutbox.id, mail.id));
    if (!this.toFiles) {
      log.info(
        { mailId: mail.id, kind: mail.kind, to: mail.toAddress, attempts: mail.attempts },
        'mail sent',
      );
    }
  }

  private async deliver(mail: ClaimedMail) {
    const message = {
      from: this.ctx.config.MAIL_FROM,
      to: mail.toAddress,
      subject: mail.subject,
      text: mail.textBody ?? '',
      html: mail.htmlBody ?? undefined,
      headers: { 'X-Cohort-Kind': mail.kind },
    };
    const info = await this.transport.sendMail(message);
    if (!this.toFiles) return;
    const dir = this.outboxDir;
    await mkdir(dir, { recursive: true });
    const stamp = this.ctx.now().toISOString().replace(/[:.]/g, '-');
    const file = join(dir, `${stamp}-${mail.id}.eml`);
    // Written whole, then renamed: whoever watches the folder never reads half a mail.
    await writeFile(`${file}.tmp`, info.message as Buffer);
    await rename(`${file}.tmp`, file);
    const link = firstLink(mail.textBody ?? '');
    // One line a person running locally can act on: the mail's link.
    this.ctx.log.info(
      { mailId: mail.id, kind: mail.kind, to: mail.toAddress, file, ...(link ? { link } : {}) },
      link
        ? `mail to ${mail.toAddress} written to the outbox folder; link: ${link}`
        : 'mail written to the outbox folder',
    );
  }
}

export const firstLink = (text: string) => text.match(/https?:\/\/[^\s<>"']+/)?.[0] ?? null;

const errorText = (err: unknown) => {
  const e = err as { message?: string; response?: string; code?: string };
  return (e.response ?? e.message ?? String(err)).slice(0, 500);
};
