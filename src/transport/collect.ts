import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Large lines handed on since the last collection that make the next one due. A multi-megabyte line leaves two or
 * three dead copies of itself (its bytes, its text, the strings parsed from it) that V8 collects only when its old
 * generation has grown by a multiple of what is live: with several sessions receiving huge frames at once, the dead
 * copies of all of them add up before that happens. Collecting after each 8 MiB of them keeps at most about that
 * much dead behind, at the cost of one full collection per huge line.
 */
export const COLLECT_AFTER_BYTES = 8 * 1024 * 1024;

/**
 * Node has no API to ask for a garbage collection. V8's `--expose-gc`, set for this process through node:v8's
 * documented setFlagsFromString, gives a new vm context a `gc` function (Jest's leak detector does the same); the
 * flag is unset at once, so no other context of the process (a host test runner's) sees it. Undefined when this fails:
 * the run then only holds more memory.
 */
function collector(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/** Counts large lines handed on, and collects garbage once COLLECT_AFTER_BYTES of them are done (on a later turn). */
export class LargeLineCollector {
  private done = 0;
  private scheduled = false;
  private gc: (() => void) | undefined | null = null;

  constructor(
    private readonly after = COLLECT_AFTER_BYTES,
    private readonly obtain: () => (() => void) | undefined = collector,
  ) {}

  /** A line of `bytes` was handed on (its listeners have run): call for large lines only. */
  handedOn(bytes: number): void {
    this.done += bytes;
    if (this.done < this.after || this.scheduled) return;
    // Asked for only once a large line came: a run without one never touches V8's flags.
    if (this.gc === null) this.gc = this.obtain();
    const gc = this.gc;
    if (!gc) return;
    this.scheduled = true;
    // On the next turn, once the promise continuations the line set off (a reply's checks) have let go of it.
    setImmediate(() => {
      this.scheduled = false;
      this.done = 0;
      gc();
    }).unref();
  }
}

/** The collector every stdio transport of the process shares. */
export const LARGE_LINES = new LargeLineCollector();
