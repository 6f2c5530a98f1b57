// How many server processes of one command may be starting at once: what the machine can run.
import { availableParallelism } from 'node:os';

/**
 * A first start (what it cost up to its first line: CPU time where the system says, else wall time) under this is light. A heavy server (a node program that loads for 1.5–2.5 s of
 * CPU) starts one process a core at a time, so that no start, and no answer of a server already up, waits long for the
 * CPU; a light one (0.1–0.3 s) starts two a core, its starts being partly I/O.
 */
const LIGHT_START_MS = 500;
/** A start may take this many times the server's first start (a loaded machine) before its clock runs anyway. */
const ALLOWANCE_FACTOR = 4;

/**
 * Starts of one server command, one gate for the whole process (both eras of a dual-era run, the auto probe, every
 * session): a start holds a place from spawn until the server has written its first line (or answered at its URL),
 * exited, or been closed. Until the first start is measured only one runs; then as many as fit the cores.
 */
export class StartGate {
  private starting = 0;
  private readonly queue: (() => void)[] = [];
  /** What the first process that wrote a line (or answered at its URL) cost until then, in ms (see LIGHT_START_MS). */
  private first?: number;

  constructor(private readonly cores = availableParallelism()) {}

  /** The measured cost of a start (undefined until a process wrote a line). */
  get firstStartMs(): number | undefined {
    return this.first;
  }

  /** At most this many starts side by side, whatever the measure says (--max-starts). */
  limit = Infinity;

  /** Starts allowed side by side: one until the first start is measured, then one a core (a heavy server) or two (a light one). */
  get width(): number {
    if (this.first === undefined) return 1;
    return Math.min(this.limit, this.roomy ? 2 * this.cores : this.cores);
  }

  /** A light server: runs of two eras may go side by side without their starts slowing each other much. */
  get roomy(): boolean {
    return this.first !== undefined && this.first < LIGHT_START_MS && this.limit > 1;
  }

  /** How long a start may take before the requests sent to it start their clocks anyway: `atLeast`, or more for a slow starter. */
  allowance(atLeast: number): number {
    return Math.max(atLeast, ALLOWANCE_FACTOR * (this.first ?? 0));
  }

  /**
   * Waits for a place; the returned function gives it back, with what the start cost when it was measured. Aborting
   * `signal` while it waits rejects: a run that was stopped starts no more servers.
   */
  async enter(signal?: AbortSignal): Promise<(costMs?: number) => void> {
    if (signal?.aborted) throw new StartAborted();
    if (this.starting >= this.width) {
      await new Promise<void>((resolve, reject) => {
        const admitted = () => {
          signal?.removeEventListener('abort', aborted);
          resolve();
        };
        const aborted = () => {
          this.queue.splice(this.queue.indexOf(admitted), 1);
          reject(new StartAborted());
        };
        signal?.addEventListener('abort', aborted, { once: true });
        this.queue.push(admitted);
      });
    } else this.starting++;
    let left = false;
    return (costMs) => {
      if (left) return;
      left = true;
      if (costMs !== undefined && this.first === undefined) this.first = costMs;
      this.starting--;
      this.admit();
    };
  }

  /** Lets queued starts in, up to the width (which may have grown once the first start was measured). */
  private admit(): void {
    while (this.queue.length > 0 && this.starting < this.width) {
      this.starting++;
      this.queue.shift()!();
    }
  }
}

/** A start given up on while it waited its turn (the run was stopped). */
export class StartAborted extends Error {
  constructor() {
    super('the run was stopped before the server could start');
  }
}

const gates = new Map<string, StartGate>();

/** The gate of one server command (the same command, arguments, folder and environment are the same server). */
export function gateFor(plan: {
  command: string;
  args: readonly string[];
  cwd: string;
  env?: Record<string, string>;
}): StartGate {
  const key = JSON.stringify([plan.command, plan.args, plan.cwd, plan.env ?? {}]);
  let gate = gates.get(key);
  if (!gate) gates.set(key, (gate = new StartGate()));
  return gate;
}

/** What the gate of a command decided, for the report: how many started at once, and the first start that said so. */
export function gateFacts(plan: Parameters<typeof gateFor>[0]): { startsAtOnce: number; firstStartMs?: number } {
  const gate = gateFor(plan);
  const first = gate.firstStartMs;
  return { startsAtOnce: gate.width, ...(first !== undefined && { firstStartMs: Math.round(first) }) };
}
