import { act } from '@testing-library/react';

type Listener = (...args: unknown[]) => void;
type AckResponder = (payload: unknown) => unknown | Promise<unknown>;

/**
 * Stands in for a socket.io-client Socket in component tests: records what the client emits, answers
 * acknowledgements through `respond`, and lets the test play the server (`serverConnect`,
 * `serverDrop`, `push`). Only the parts of the Socket API the app uses exist.
 */
export class FakeSocket {
  readonly namespace: string;
  connected = false;
  active = true;
  id: string | undefined;
  readonly emitted: Array<{ event: string; payload: unknown }> = [];
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly responders = new Map<string, AckResponder>();

  constructor(namespace: string) {
    this.namespace = namespace;
  }

  on(event: string, listener: Listener) {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener);
    return this;
  }

  off(event: string, listener: Listener) {
    this.listeners.get(event)?.delete(listener);
    return this;
  }

  emit(event: string, payload?: unknown) {
    this.emitted.push({ event, payload });
    return this;
  }

  timeout(_ms: number) {
    return this;
  }

  async emitWithAck(event: string, payload: unknown): Promise<unknown> {
    this.emitted.push({ event, payload });
    if (!this.connected) throw new Error('socket has been disconnected');
    const responder = this.responders.get(event);
    if (!responder) return new Promise(() => {});
    return responder(payload);
  }

  disconnect() {
    const was = this.connected;
    this.connected = false;
    this.active = false;
    this.id = undefined;
    if (was) this.fire('disconnect', 'io client disconnect');
    return this;
  }

  // ---- the test plays the server

  /** How the "server" answers an event with an acknowledgement. */
  respond(event: string, responder: AckResponder) {
    this.responders.set(event, responder);
    return this;
  }

  serverConnect() {
    this.connected = true;
    this.id = `fake-${Math.random().toString(36).slice(2)}`;
    act(() => this.fire('connect'));
  }

  serverDrop() {
    this.connected = false;
    this.id = undefined;
    act(() => this.fire('disconnect', 'transport close'));
  }

  push(event: string, payload: unknown) {
    act(() => this.fire(event, payload));
  }

  sent(event: string) {
    return this.emitted.filter((e) => e.event === event).map((e) => e.payload);
  }

  private fire(event: string, ...args: unknown[]) {
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener(...args);
  }
}

/** Every fake socket the code under test opened, newest last. Reset it in beforeEach. */
export const openedSockets: FakeSocket[] = [];

export function fakeConnectNamespace(namespace: string) {
  const socket = new FakeSocket(namespace);
  openedSockets.push(socket);
  return socket;
}
