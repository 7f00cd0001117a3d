import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type ConversationSource,
  ConversationStore,
  NOT_DELIVERED,
  type SendAck,
  type StoredMessage,
} from './conversation-store.ts';

interface Msg extends StoredMessage {
  content: string;
}

const msg = (seq: number, clientId = `c-${seq}`): Msg => ({
  _id: `m-${seq}`,
  seq,
  clientId,
  content: `message ${seq}`,
  rev: seq,
});
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => msg(from + i));

/**
 * A server in memory: a history by seq, `after`/`before`/`latest` with the REST semantics, and a
 * `send` whose acknowledgement the test controls.
 */
class FakeServer implements ConversationSource<Msg> {
  history: Msg[] = [];
  connected = true;
  readonly calls: string[] = [];
  readonly sends: Array<{ clientId: string; content: string; resolve: (ack: SendAck<Msg>) => void }> = [];
  /** When set, `send` answers at once with this; else the test resolves `sends[i]` by hand. */
  autoAck: ((clientId: string, content: string) => SendAck<Msg>) | null = null;
  failNextFetch = false;

  private fetch(call: string, result: () => Msg[]) {
    this.calls.push(call);
    if (this.failNextFetch) {
      this.failNextFetch = false;
      return Promise.reject(new Error('offline'));
    }
    return Promise.resolve(result());
  }

  latest = (limit: number) => this.fetch(`latest ${limit}`, () => this.history.slice(-limit));
  after = (seq: number, limit: number) =>
    this.fetch(`after ${seq}`, () => this.history.filter((m) => m.seq > seq).slice(0, limit));
  before = (seq: number, limit: number) =>
    this.fetch(`before ${seq}`, () => this.history.filter((m) => m.seq < seq).slice(-limit));
  around = (seq: number, limit: number) =>
    this.fetch(`around ${seq}`, () => [
      ...this.history.filter((m) => m.seq <= seq).slice(-Math.ceil(limit / 2)),
      ...this.history.filter((m) => m.seq > seq).slice(0, Math.floor(limit / 2)),
    ]);
  send = (clientId: string, content: string) => {
    if (!this.connected) return Promise.reject(new Error('socket has been disconnected'));
    return new Promise<SendAck<Msg>>((resolve) => {
      this.sends.push({ clientId, content, resolve });
      if (this.autoAck) resolve(this.autoAck(clientId, content));
    });
  };
  // Not recorded in `calls`: the change backfill follows every seq backfill.
  changes = (rev: number, limit: number) =>
    Promise.resolve(
      this.history
        .filter((m) => m.rev > rev)
        .sort((a, b) => a.rev - b.rev)
        .slice(0, limit),
    );
  isConnected = () => this.connected;

  private lastRev() {
    return Math.max(0, ...this.history.map((m) => m.rev));
  }

  /** Edits a stored message like the real server: it takes the next rev. */
  edit(seq: number, content: string): Msg {
    const index = this.history.findIndex((m) => m.seq === seq);
    const message = { ...(this.history[index] as Msg), content, rev: this.lastRev() + 1 };
    this.history[index] = message;
    return message;
  }

  /** Stores a message like the real server: idempotent by clientId, next seq. */
  store(clientId: string, content: string): Msg {
    const existing = this.history.find((m) => m.clientId === clientId);
    if (existing) return existing;
    const seq = (this.history.at(-1)?.seq ?? 0) + 1;
    const message = { _id: `m-${seq}`, seq, clientId, content, rev: this.lastRev() + 1 };
    this.history.push(message);
    return message;
  }
}

let ids = 0;
const newClientId = () => `client-${++ids}`;
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup(history: Msg[] = [], options: ConstructorParameters<typeof ConversationStore>[1] = {}) {
  const server = new FakeServer();
  server.history = history;
  const store = new ConversationStore(server, { gapGraceMs: 0, retryMs: 10, newClientId, ...options });
  return { server, store };
}

const seqs = (store: ConversationStore<Msg>) => store.getState().messages.map((m) => m.seq);

beforeEach(() => {
  ids = 0;
});

afterEach(() => {
  vi.useRealTimers();
});

describe('ConversationStore: history', () => {
  it('loads the newest page and tracks the last seq; older pages come with before=<oldest seq>', async () => {
    const { server, store } = setup(range(1, 120), { pageSize: 50 });
    await store.load();
    expect(server.calls).toEqual(['latest 50']);
    expect(seqs(store)).toEqual(range(71, 120).map((m) => m.seq));
    expect(store.lastSeq).toBe(120);
    expect(store.getState()).toMatchObject({ status: 'ready', hasOlder: true });

    await store.loadOlder();
    expect(server.calls.at(-1)).toBe('before 71');
    expect(seqs(store)[0]).toBe(21);
    await store.loadOlder();
    expect(server.calls.at(-1)).toBe('before 21');
    expect(seqs(store)).toEqual(range(1, 120).map((m) => m.seq));
    expect(store.getState().hasOlder).toBe(false);
  });

  it('opens at an anchor (a search hit): the page around it, then everything newer by backfill', async () => {
    const { server, store } = setup(range(1, 300), { pageSize: 50, backfillPageSize: 100, anchorSeq: 40 });
    await store.load();
    expect(server.calls).toEqual(['around 40']);
    expect(seqs(store)).toEqual(range(16, 65).map((m) => m.seq));
    expect(store.getState()).toMatchObject({ status: 'ready', hasOlder: true });
    store.onConnected();
    await vi.waitFor(() => expect(store.lastSeq).toBe(300));
    expect(server.calls).toEqual(['around 40', 'after 65', 'after 165', 'after 265']);
    expect(seqs(store)).toEqual(range(16, 300).map((m) => m.seq));
    await store.loadOlder();
    expect(server.calls.at(-1)).toBe('before 16');
  });

  it('says there is nothing older when the first page starts at seq 1', async () => {
    const { store } = setup(range(1, 3));
    await store.load();
    expect(store.getState().hasOlder).toBe(false);
    expect(store.lastSeq).toBe(3);
  });

  it('reports a failed first load and retries it on the next connection', async () => {
    const { server, store } = setup(range(1, 2));
    server.failNextFetch = true;
    await store.load();
    expect(store.getState().status).toBe('error');
    store.onConnected();
    await flush();
    await flush();
    expect(store.getState().status).toBe('ready');
    expect(seqs(store)).toEqual([1, 2]);
  });
});

describe('ConversationStore: live messages and gaps', () => {
  it('appends the next seq without fetching anything', async () => {
    const { server, store } = setup(range(1, 3));
    await store.load();
    store.receive(msg(4));
    await flush();
    expect(seqs(store)).toEqual([1, 2, 3, 4]);
    expect(store.lastSeq).toBe(4);
    expect(server.calls).toEqual(['latest 50']);
  });

  it('fetches after=<last seq> when a message skips ahead, and merges what was missed', async () => {
    const { server, store } = setup(range(1, 3));
    await store.load();
    server.history = range(1, 7);
    store.receive(msg(7));
    await flush();
    expect(server.calls).toEqual(['latest 50', 'after 3']);
    expect(seqs(store)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(store.lastSeq).toBe(7);
  });

  it('lets a broadcast already on its way close a gap before fetching (grace period)', async () => {
    vi.useFakeTimers();
    const { server, store } = setup(range(1, 3), { gapGraceMs: 300 });
    await store.load();
    store.receive(msg(5));
    store.receive(msg(4));
    await vi.advanceTimersByTimeAsync(400);
    expect(server.calls).toEqual(['latest 50']);
    expect(store.lastSeq).toBe(5);
  });

  it('backfills page after page after a reconnection until the server has nothing more', async () => {
    const { server, store } = setup(range(1, 10), { backfillPageSize: 200 });
    await store.load();
    server.history = range(1, 460);
    store.onConnected();
    await vi.waitFor(() => expect(store.lastSeq).toBe(460));
    expect(server.calls).toEqual(['latest 50', 'after 10', 'after 210', 'after 410']);
    expect(seqs(store)).toHaveLength(460);
  });

  it('backfills after a first load that raced the connection (messages posted in between)', async () => {
    const { server, store } = setup(range(1, 2));
    const loading = store.load();
    store.onConnected(); // joined while the first page was on its way
    server.history = range(1, 4);
    await loading;
    await vi.waitFor(() => expect(seqs(store)).toEqual([1, 2, 3, 4]));
    expect(server.calls).toEqual(['latest 50', 'after 2']);
  });

  it('retries a backfill that failed', async () => {
    const { server, store } = setup(range(1, 2));
    await store.load();
    server.history = range(1, 5);
    server.failNextFetch = true;
    store.onConnected();
    await vi.waitFor(() => expect(store.lastSeq).toBe(5));
    expect(server.calls.filter((c) => c === 'after 2')).toHaveLength(2);
  });

  it('never shows a message twice: duplicates by _id are dropped', async () => {
    const { store } = setup(range(1, 2));
    await store.load();
    store.receive(msg(2));
    store.receive(msg(3));
    store.receive(msg(3));
    expect(seqs(store)).toEqual([1, 2, 3]);
  });
});

describe('ConversationStore: outbox', () => {
  it('shows a message as sending, then replaces it with the stored one from the acknowledgement', async () => {
    const { server, store } = setup();
    await store.load();
    store.send('  hello  ');
    expect(store.getState().outbox).toMatchObject([
      { clientId: 'client-1', content: 'hello', status: 'sending' },
    ]);
    const [sent] = server.sends;
    expect(sent).toMatchObject({ clientId: 'client-1', content: 'hello' });
    sent?.resolve({ ok: true, message: server.store('client-1', 'hello') });
    await flush();
    expect(store.getState().outbox).toEqual([]);
    expect(store.getState().messages).toMatchObject([{ seq: 1, clientId: 'client-1', content: 'hello' }]);
  });

  it('dedupes by clientId: the broadcast and the acknowledgement of one message show it once', async () => {
    const { server, store } = setup();
    await store.load();
    store.send('hi');
    const stored = server.store('client-1', 'hi');
    store.receive(stored); // the broadcast wins the race
    expect(store.getState().outbox).toEqual([]);
    server.sends[0]?.resolve({ ok: true, message: stored });
    await flush();
    expect(store.getState().messages).toHaveLength(1);
    expect(store.getState().outbox).toEqual([]);
  });

  it('sends nothing for blank text', async () => {
    const { server, store } = setup();
    await store.load();
    expect(store.send('   ')).toBeNull();
    expect(store.getState().outbox).toEqual([]);
    expect(server.sends).toEqual([]);
  });

  it('queues while disconnected and resends everything pending with the same clientId on reconnect', async () => {
    const { server, store } = setup();
    await store.load();
    server.connected = false;
    store.send('one');
    store.send('two');
    expect(server.sends).toEqual([]);
    expect(store.getState().outbox.map((e) => e.status)).toEqual(['sending', 'sending']);

    server.connected = true;
    server.autoAck = (clientId, content) => ({ ok: true, message: server.store(clientId, content) });
    store.onConnected();
    await vi.waitFor(() => expect(store.getState().outbox).toEqual([]));
    expect(server.sends.map((s) => s.clientId)).toEqual(['client-1', 'client-2']);
    expect(store.getState().messages.map((m) => [m.seq, m.content])).toEqual([
      [1, 'one'],
      [2, 'two'],
    ]);
  });

  it('keeps a message whose connection dropped before the acknowledgement as sending, then resends it once', async () => {
    const { server, store } = setup();
    await store.load();
    store.send('maybe stored');
    // The server stored it, but the acknowledgement is lost with the connection.
    server.store('client-1', 'maybe stored');
    server.connected = false;
    server.sends[0]?.resolve(Promise.reject(new Error('socket has been disconnected')) as never);
    await flush();
    expect(store.getState().outbox[0]?.status).toBe('sending');

    server.connected = true;
    server.autoAck = (clientId, content) => ({ ok: true, message: server.store(clientId, content) });
    store.onConnected();
    await vi.waitFor(() => expect(store.getState().outbox).toEqual([]));
    expect(server.sends.map((s) => s.clientId)).toEqual(['client-1', 'client-1']);
    expect(server.history).toHaveLength(1);
    expect(store.getState().messages).toHaveLength(1);
  });

  it('fails after the acknowledgement timeout; Retry resends with the same clientId', async () => {
    vi.useFakeTimers();
    const { server, store } = setup([], { ackTimeoutMs: 10_000 });
    await store.load();
    store.send('slow');
    await vi.advanceTimersByTimeAsync(10_001);
    expect(store.getState().outbox).toMatchObject([{ status: 'failed', error: NOT_DELIVERED }]);

    server.autoAck = (clientId, content) => ({ ok: true, message: server.store(clientId, content) });
    store.retry('client-1');
    await vi.advanceTimersByTimeAsync(0);
    expect(server.sends.map((s) => s.clientId)).toEqual(['client-1', 'client-1']);
    expect(store.getState().outbox).toEqual([]);
    expect(store.getState().messages).toMatchObject([{ clientId: 'client-1' }]);
  });

  it('shows a refusal as failed with its reason; only Retry (not a reconnection) sends it again', async () => {
    const { server, store } = setup();
    await store.load();
    server.autoAck = () => ({ ok: false, message: 'Slow down' });
    store.send('too fast');
    await flush();
    expect(store.getState().outbox).toMatchObject([{ status: 'failed', error: 'Slow down', rejected: true }]);
    store.onConnected();
    await flush();
    expect(server.sends).toHaveLength(1);

    server.autoAck = (clientId, content) => ({ ok: true, message: server.store(clientId, content) });
    store.retry('client-1');
    await flush();
    expect(server.sends.map((s) => s.clientId)).toEqual(['client-1', 'client-1']);
    expect(store.getState().outbox).toEqual([]);
  });

  it('sends queued messages one at a time, in the order written', async () => {
    const { server, store } = setup();
    await store.load();
    store.send('first');
    store.send('second');
    store.send('third');
    expect(server.sends.map((s) => s.content)).toEqual(['first']);
    server.sends[0]?.resolve({ ok: true, message: server.store('client-1', 'first') });
    await flush();
    expect(server.sends.map((s) => s.content)).toEqual(['first', 'second']);
    server.sends[1]?.resolve({ ok: true, message: server.store('client-2', 'second') });
    await flush();
    server.sends[2]?.resolve({ ok: true, message: server.store('client-3', 'third') });
    await flush();
    expect(store.getState().messages.map((m) => m.content)).toEqual(['first', 'second', 'third']);
  });

  it('waits and resends after a transient refusal (the flood guard), keeping the order', async () => {
    vi.useFakeTimers();
    const { server, store } = setup([], { transientReasons: ['Slow down'], transientRetryMs: 5000 });
    await store.load();
    server.autoAck = () => ({ ok: false, message: 'Slow down' });
    store.send('a');
    store.send('b');
    await vi.advanceTimersByTimeAsync(0);
    expect(server.sends.map((s) => s.content)).toEqual(['a']);
    expect(store.getState().outbox.map((e) => e.status)).toEqual(['sending', 'sending']);

    server.autoAck = (clientId, content) => ({ ok: true, message: server.store(clientId, content) });
    await vi.advanceTimersByTimeAsync(5000);
    expect(server.sends.map((s) => s.clientId)).toEqual(['client-1', 'client-1', 'client-2']);
    expect(store.getState().messages.map((m) => m.content)).toEqual(['a', 'b']);
  });

  it('keeps the outbox in local storage so a reload resends it with the same clientId', async () => {
    const key = 'test.outbox';
    const first = setup([], { outboxKey: key });
    await first.store.load();
    first.server.connected = false;
    first.store.send('survives a reload');
    first.store.dispose();
    expect(JSON.parse(localStorage.getItem(key) ?? '[]')).toMatchObject([
      { clientId: 'client-1', content: 'survives a reload', status: 'sending' },
    ]);

    const second = setup([], { outboxKey: key });
    expect(second.store.getState().outbox).toMatchObject([{ clientId: 'client-1', status: 'sending' }]);
    await second.store.load();
    second.server.autoAck = (clientId, content) => ({
      ok: true,
      message: second.server.store(clientId, content),
    });
    second.store.onConnected();
    await vi.waitFor(() => expect(second.store.getState().outbox).toEqual([]));
    expect(second.server.sends.map((s) => s.clientId)).toEqual(['client-1']);
    expect(localStorage.getItem(key)).toBeNull();
  });

  it('drops a restored outbox entry that history shows was stored already', async () => {
    const key = 'test.outbox';
    localStorage.setItem(
      key,
      JSON.stringify([
        { clientId: 'c-2', content: 'message 2', createdAt: new Date().toISOString(), status: 'sending' },
      ]),
    );
    const { store } = setup(range(1, 2), { outboxKey: key });
    await store.load();
    expect(store.getState().outbox).toEqual([]);
    expect(store.getState().messages).toHaveLength(2);
  });

  it('discards a failed message on request', async () => {
    const { server, store } = setup();
    await store.load();
    server.autoAck = () => ({ ok: false, message: 'Recipient not found' });
    store.send('to nobody');
    await flush();
    store.discard('client-1');
    expect(store.getState().outbox).toEqual([]);
  });
});

describe('changes (edits, deletes, reactions)', () => {
  it('takes a live update when it is newer, and ignores a stale copy', async () => {
    const { server, store } = setup(range(1, 3));
    await store.load();
    const edited = server.edit(2, 'edited');
    store.receiveUpdate(edited);
    expect(store.getState().messages[1]?.content).toBe('edited');
    // The original broadcast arriving late (a lower rev) changes nothing.
    store.receive(msg(2));
    expect(store.getState().messages[1]?.content).toBe('edited');
  });

  it('backfills changes made while disconnected, after the new messages', async () => {
    const { server, store } = setup(range(1, 5));
    await store.load();
    server.connected = false;
    server.edit(1, 'first, edited');
    server.store('c-new', 'while away');
    server.edit(4, 'fourth, edited');
    server.connected = true;
    store.onConnected();
    await flush();
    await flush();
    const contents = store.getState().messages.map((m) => m.content);
    expect(contents).toEqual([
      'first, edited',
      'message 2',
      'message 3',
      'fourth, edited',
      'message 5',
      'while away',
    ]);
  });

  it('ignores an update of a message older than the first page (it comes with its page)', async () => {
    const { server, store } = setup(range(1, 60));
    await store.load();
    store.receiveUpdate(server.edit(3, 'old news'));
    expect(seqs(store)[0]).toBe(11);
    expect(store.getState().messages.some((m) => m.content === 'old news')).toBe(false);
  });
});
