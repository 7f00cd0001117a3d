import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server in the test process (the `smtp-server` package): nodemailer speaks the real
 * protocol to it, and every accepted message is parsed with `mailparser` for the test to assert on.
 * `refuse(n)` answers the next n messages with a permanent SMTP error instead of accepting them.
 */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Every http(s) link in the text part, in order. */
  links: string[];
  headers: Map<string, unknown>;
  raw: string;
  /** Who logged in over AUTH for this message (null without AUTH). */
  user: string | null;
}

export async function startSmtpServer(opts: { user?: string; pass?: string } = {}) {
  const received: ReceivedMail[] = [];
  let toRefuse = 0;
  let attempts = 0;
  const waiters = new Set<() => void>();

  const server = new SMTPServer({
    authOptional: opts.user === undefined,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === opts.user && auth.password === opts.pass)
        return callback(null, { user: auth.username });
      return callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        attempts++;
        if (toRefuse > 0) {
          toRefuse--;
          const err = Object.assign(new Error('Mailbox unavailable (refused by the test)'), {
            responseCode: 550,
          });
          return callback(err);
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const parsed = await simpleParser(raw);
        const text = parsed.text ?? '';
        received.push({
          from: parsed.from?.text ?? '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: parsed.subject ?? '',
          text,
          html: typeof parsed.html === 'string' ? parsed.html : '',
          links: text.match(/https?:\/\/[^\s<>"']+/g) ?? [],
          headers: parsed.headers,
          raw,
          user: typeof session.user === 'string' ? session.user : null,
        });
        callback();
        for (const wake of waiters) wake();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const auth =
    opts.user !== undefined ? `${encodeURIComponent(opts.user)}:${encodeURIComponent(opts.pass ?? '')}@` : '';

  return {
    url: `smtp://${auth}127.0.0.1:${port}`,
    port,
    received,
    /** How many DATA commands reached the server (accepted or refused). */
    attempts: () => attempts,
    refuse(n: number) {
      toRefuse = n;
    },
    /** The first message (already received or arriving within `timeoutMs`) that matches. */
    async waitFor(match: (m: ReceivedMail) => boolean, timeoutMs = 5000): Promise<ReceivedMail> {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find(match);
        if (found) return found;
        const left = until - Date.now();
        if (left <= 0) throw new Error(`no matching mail within ${timeoutMs} ms (got ${received.length})`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SmtpServerFake = Awaited<ReturnType<typeof startSmtpServer>>;
