/**
 * Runs the tasks given for one key one after another, in arrival order (tasks of different keys run
 * side by side). Socket handlers await between their check and their write; two events of one socket
 * (or two joins of one room) must not interleave there.
 */
export class KeyedSerial {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with work queued or running (tests check that nothing is left behind). */
  get size() {
    return this.tails.size;
  }
}
