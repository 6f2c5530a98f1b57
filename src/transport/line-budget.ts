import type { Readable } from 'node:stream';

/**
 * Bytes of stdout lines being assembled, across every stdio session of the process (all those of a run at once).
 * Past the limit, a stream assembling a large line pauses (the server then waits on its pipe) unless its line is the
 * oldest in progress, which always goes on: lines complete one after another, so memory stays bounded and every
 * line still arrives. Streams with only small lines in progress are never paused.
 */
export class LineBudget {
  /** Bytes each stream holds of the line it is assembling; in order of when those lines started. */
  private readonly held = new Map<Readable, number>();
  private readonly paused = new Set<Readable>();
  private used = 0;

  constructor(
    private readonly limit: number,
    private readonly small: number,
  ) {}

  /** The stream now holds `bytes` of a line in progress (0: none, or the stream is gone). */
  hold(stream: Readable, bytes: number): void {
    const before = this.held.get(stream) ?? 0;
    this.used += bytes - before;
    if (bytes === 0) {
      this.held.delete(stream);
      this.paused.delete(stream);
    } else this.held.set(stream, bytes);
    if (bytes > before && bytes > this.small && this.used > this.limit && this.held.keys().next().value !== stream) {
      this.paused.add(stream);
      stream.pause();
    } else if (bytes < before) this.release();
  }

  /** Bytes held across streams (for tests). */
  get total(): number {
    return this.used;
  }

  /** Resumes every paused stream once under the limit; otherwise the one whose line is now the oldest. */
  private release(): void {
    const oldest = this.held.keys().next().value;
    for (const stream of this.paused) {
      if (this.used > this.limit && stream !== oldest) continue;
      this.paused.delete(stream);
      stream.resume();
    }
  }
}

/**
 * One maximal frame's worth: the oldest line goes on to its end while the others wait with at most SMALL_LINE_BYTES each,
 * so only one large line is assembled, decoded and parsed at a time (each leaves copies of itself until collected).
 */
export const LINE_BUDGET_BYTES = 16 * 1024 * 1024;
/** A line this small never pauses its stream: only large frames wait their turn (the others hold this much each meanwhile). */
export const SMALL_LINE_BYTES = 256 * 1024;

/** The budget every stdio transport of the process shares. */
export const ASSEMBLING = new LineBudget(LINE_BUDGET_BYTES, SMALL_LINE_BYTES);
