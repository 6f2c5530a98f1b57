import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Large lines handed on since the last collection that make the next one due. A multi-megabyte line leaves two or
 * three dead copies of itself (its bytes, its text, the strings parsed from it) that V8 collects only when its old
 * generation has grown by a multiple of what is live: with several sessions receiving huge frames at once, the dead
 * copies of all of them add up before that happens. Collecting after each 8 MiB of them keeps at most about that
 * much dead behind, at the cost of one full collection per huge line. A line this large is also collected for while
 * it is decoded (see LargeLineCollector.copying).
 */
export const COLLECT_AFTER_BYTES = 8 * 1024 * 1024;

/**
 * Node has no API to ask for a garbage collection. V8's `--expose-gc`, set for this process through node:v8's
 * documented setFlagsFromString, gives a new vm context a `gc` function (Jest's leak detector does the same); the
 * flag is unset at once, so no other context of the process (a host test runner's) sees it. Undefined when this fails:
 * the run then only holds more memory.
 */
function collector(): (() => void) | undefined {
  let gc: unknown;
  try {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc');
  } catch {
    return undefined;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  if (typeof gc !== 'function') return undefined;
  // V8 frees the memory of dead Buffers on a background task some milliseconds after a collection; swept within the
  // collection instead, it is gone when gc() returns, before the next copy of a line is made. Only these collections.
  return () => {
    setFlagsFromString('--no-concurrent-array-buffer-sweeping');
    try {
      (gc as () => void)();
    } finally {
      setFlagsFromString('--concurrent-array-buffer-sweeping');
    }
  };
}

/**
 * Counts large lines handed on, and collects garbage once COLLECT_AFTER_BYTES of them are done (on a later turn);
 * a line that large alone is also collected for while it is decoded.
 */
export class LargeLineCollector {
  private done = 0;
  private scheduled = false;
  private gc: (() => void) | undefined | null = null;

  constructor(
    private readonly after = COLLECT_AFTER_BYTES,
    private readonly obtain: () => (() => void) | undefined = collector,
  ) {}

  /**
   * A line of `bytes` is about to be copied once more (its joined bytes decoded, its text parsed). A line of
   * COLLECT_AFTER_BYTES or more is collected for at once, so that its copies already dead (its chunks once joined, its
   * bytes once decoded) are freed before the next one is made: it is held at most twice at any moment.
   */
  copying(bytes: number): void {
    if (bytes >= this.after) this.collector()?.();
  }

  /** A line of `bytes` was handed on (its listeners have run): call for large lines only. */
  handedOn(bytes: number): void {
    this.done += bytes;
    if (this.done < this.after || this.scheduled) return;
    const gc = this.collector();
    if (!gc) return;
    this.scheduled = true;
    // On the next turn, once the promise continuations the line set off (a reply's checks) have let go of it.
    setImmediate(() => {
      this.scheduled = false;
      this.done = 0;
      gc();
    }).unref();
  }

  /** Asked for only once a large line came: a run without one never touches V8's flags. */
  private collector(): (() => void) | undefined {
    if (this.gc === null) this.gc = this.obtain();
    return this.gc;
  }
}

/** The collector every stdio transport of the process shares. */
export const LARGE_LINES = new LargeLineCollector();
