/** Calls every listener; one that throws does not stop the others or corrupt the caller's reader. */
function callAll<T>(listeners: readonly ((value: T) => void)[], value: T): void {
  for (const listener of listeners) {
    try {
      listener(value);
    } catch (err) {
      queueMicrotask(() => {
        throw err;
      });
    }
  }
}

/** A stream of values for listeners; values emitted before the first listener are delivered to it. */
export class Feed<T> {
  private readonly listeners: ((value: T) => void)[] = [];
  private pending: T[] | undefined = [];

  on(listener: (value: T) => void): void {
    this.listeners.push(listener);
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    if (pending.length > 0) queueMicrotask(() => pending.forEach((value) => callAll(this.listeners, value)));
  }

  emit(value: T): void {
    if (this.pending) this.pending.push(value);
    else callAll(this.listeners, value);
  }
}

/** Something that happens once (an exit): listeners added afterwards still hear of it. */
export class Once<T> {
  private readonly listeners: ((value: T) => void)[] = [];
  private happened: T | undefined;

  get value(): T | undefined {
    return this.happened;
  }

  on(listener: (value: T) => void): void {
    this.listeners.push(listener);
    const value = this.happened;
    if (value !== undefined) queueMicrotask(() => callAll([listener], value));
  }

  /** Records the value and tells the listeners; later calls are ignored. */
  fire(value: T): void {
    if (this.happened !== undefined) return;
    this.happened = value;
    callAll(this.listeners, value);
  }
}
