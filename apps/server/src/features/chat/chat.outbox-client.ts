import { randomUUID } from 'node:crypto';
import {
  CHAT_EVENTS,
  CHAT_NAMESPACE,
  type ChannelMessage,
  type SendChannelMessageAck,
  TRANSIENT_SEND_REASONS,
} from '@cohort/shared/chat';
import { io as connect, type Socket } from 'socket.io-client';

/**
 * A test client that behaves as docs/realtime.md asks of the web client: an outbox resent with the
 * same clientId until acknowledged, the history kept by seq, and a backfill through REST
 * (`after=<last contiguous seq>`) after every (re)join and every detected gap. Not a test file.
 */
export class OutboxClient {
  readonly socket: Socket;
  /** Everything this client knows of the channel, by seq. */
  readonly bySeq = new Map<number, ChannelMessage>();
  /** Acknowledgements received, in order. */
  readonly acked: ChannelMessage[] = [];
  /** Messages delivered live (newMessage), in arrival order; backfilled ones are not here. */
  readonly live: ChannelMessage[] = [];
  /** Sends left without an answer (timeout, dropped connection) and so repeated under their clientId. */
  unanswered = 0;
  /** Sends refused for a passing reason (flood guard, database unreachable) and so resent. */
  readonly transient = new Map<string, number>();
  private contiguous = 0;
  private backfilling: Promise<void> | null = null;
  private joined = false;

  constructor(
    private readonly baseUrl: () => string,
    private readonly token: string,
    private readonly ref: { workspaceName: string; channelId: string },
    private readonly opts: { ackTimeoutMs?: number } = {},
  ) {
    this.socket = connect(`${baseUrl()}${CHAT_NAMESPACE}`, {
      transports: ['websocket'],
      auth: { token },
      forceNew: true,
      reconnectionDelay: 100,
      reconnectionDelayMax: 500,
      randomizationFactor: 0,
    });
    this.socket.on('connect', () => {
      this.joined = false;
      this.socket
        .timeout(5000)
        .emitWithAck(CHAT_EVENTS.joinChannel, this.ref)
        .then((ack: { ok: boolean }) => {
          if (!ack.ok) throw new Error('join refused');
          this.joined = true;
          return this.backfill();
        })
        .catch(() => {}); // a dropped connection retries on the next connect
    });
    this.socket.on('disconnect', () => {
      this.joined = false;
    });
    this.socket.on(CHAT_EVENTS.newMessage, (m: ChannelMessage) => {
      if (m.channel !== this.ref.channelId) return;
      this.live.push(m);
      this.store([m]);
      if (m.seq > this.contiguous + 1) void this.backfill().catch(() => {});
    });
  }

  get lastSeq() {
    return this.contiguous;
  }

  get isJoined() {
    return this.joined;
  }

  /** The known history, oldest first. */
  history(): ChannelMessage[] {
    return [...this.bySeq.values()].sort((a, b) => a.seq - b.seq);
  }

  private store(messages: ChannelMessage[]) {
    for (const m of messages) this.bySeq.set(m.seq, m);
    while (this.bySeq.has(this.contiguous + 1)) this.contiguous++;
  }

  /** Fetches everything above the last contiguous seq, page by page. */
  backfill(): Promise<void> {
    this.backfilling ??= (async () => {
      try {
        for (;;) {
          const path = `/api/workspaces/${encodeURIComponent(this.ref.workspaceName)}/channels/${
            this.ref.channelId
          }/messages?after=${this.contiguous}&limit=200`;
          const res = await fetch(`${this.baseUrl()}${path}`, {
            headers: { authorization: `Bearer ${this.token}` },
          });
          if (!res.ok) throw new Error(`backfill: ${res.status}`);
          const page = (await res.json()) as ChannelMessage[];
          const before = this.contiguous;
          this.store(page);
          if (page.length < 200 || this.contiguous === before) return;
        }
      } finally {
        this.backfilling = null;
      }
    })();
    return this.backfilling;
  }

  /**
   * Sends one message exactly once from the user's point of view: the same clientId is resent after
   * an acknowledgement timeout, a disconnect or a transient refusal ("Slow down", database
   * unreachable), until the server acknowledges it.
   */
  async send(content: string): Promise<ChannelMessage> {
    const clientId = randomUUID();
    for (;;) {
      if (!this.socket.connected) {
        await new Promise<void>((r) => this.socket.once('connect', () => r()));
        continue;
      }
      let ack: SendChannelMessageAck;
      try {
        ack = await this.socket
          .timeout(this.opts.ackTimeoutMs ?? 2000)
          .emitWithAck(CHAT_EVENTS.sendMessage, { ...this.ref, clientId, message: { content } });
      } catch {
        this.unanswered++;
        continue; // no answer: the message may or may not be stored; the resend settles it
      }
      if (ack.ok) {
        this.acked.push(ack.message);
        this.store([ack.message]);
        return ack.message;
      }
      if (!TRANSIENT_SEND_REASONS.includes(ack.message)) throw new Error(`send refused: ${ack.message}`);
      this.transient.set(ack.message, (this.transient.get(ack.message) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  close() {
    this.socket.close();
  }
}
