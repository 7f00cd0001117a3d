/**
 * What one socket remembers for as long as it is connected (the channels and the people it sends to),
 * so that a send goes straight to its guarded insert. Only a cache: every insert re-checks access in
 * its own statement, and a refusal forgets the entry. Bounded: at most `max` entries, all dropped
 * when a new one would not fit (a client naming ever new targets cannot grow it).
 */
export class SocketMemory<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly max = 100) {}

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  remember(key: string, value: V): void {
    if (this.entries.size >= this.max && !this.entries.has(key)) this.entries.clear();
    this.entries.set(key, value);
  }

  forget(key: string): void {
    this.entries.delete(key);
  }
}
