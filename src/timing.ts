// Where a run's time went: its server starts, its slowest requests and its fixed waits (Report.criticalPath).
import type { CriticalPath } from './schema/generated/report.js';

/** The slowest requests a report names. */
const SLOWEST = 5;

interface Call {
  method: string;
  /** The tool, prompt or resource asked for, where the request names one. */
  name?: string;
  ms: number;
}

interface Tally {
  /** Each server start's time to its first line or answer, ms of wall time. */
  starts: number[];
  /** Starts of processes that ended without a line (closed unused, or crashed). */
  silentStarts: number;
  calls: Call[];
  waits: Map<string, { ms: number; count: number }>;
}

/** The runs recording now (runs side by side each record what both do, as the process counts do). */
const tallies = new Set<Tally>();

/** A server process started and gave its first line (or answered at its URL) `ms` after its spawn; undefined: it ended without one. */
export function recordStart(ms: number | undefined): void {
  for (const t of tallies) {
    if (ms === undefined) t.silentStarts++;
    else t.starts.push(ms);
  }
}

/** A request answered `ms` after the server could read it. Only the slowest are kept. */
export function recordCall(method: string, params: unknown, ms: number): void {
  if (tallies.size === 0) return;
  const p = params as { name?: unknown; uri?: unknown } | undefined;
  const named = typeof p?.name === 'string' ? p.name : typeof p?.uri === 'string' ? p.uri : undefined;
  const call: Call = { method, ...(named !== undefined && { name: named }), ms: Math.round(ms) };
  for (const t of tallies) {
    t.calls.push(call);
    if (t.calls.length > SLOWEST * 4) t.calls = t.calls.sort((a, b) => b.ms - a.ms).slice(0, SLOWEST);
  }
}

/**
 * A window that waits a set time for something not to happen ran its whole length: it is named so that it can be
 * replaced by an event where one exists.
 */
export function recordWait(what: string, ms: number): void {
  for (const t of tallies) {
    const w = t.waits.get(what) ?? { ms: Math.round(ms), count: 0 };
    w.count++;
    t.waits.set(what, w);
  }
}

/** Waits `ms` and records the wait as a fixed one named `what`. */
export function fixedWait(what: string, ms: number): Promise<void> {
  return new Promise((resolve) =>
    setTimeout(() => {
      recordWait(what, ms);
      resolve();
    }, ms),
  );
}

/**
 * `p`, or `otherwise` when `p` has not settled within `ms`: then the window ran its whole length and is recorded as a
 * fixed wait named `what`. The timer does not keep the process alive.
 */
export function within<T, U>(what: string, ms: number, p: Promise<T>, otherwise: U): Promise<T | U> {
  let timer: NodeJS.Timeout | undefined;
  const ran = new Promise<U>((resolve) => {
    timer = setTimeout(() => {
      recordWait(what, ms);
      resolve(otherwise);
    }, ms);
    timer.unref();
  });
  return Promise.race([p, ran]).finally(() => clearTimeout(timer));
}

/** Starts recording a run; `stop` gives its critical path for a run that took `durationMs`. */
export function timeRun(): { stop(durationMs: number): CriticalPath } {
  const tally: Tally = { starts: [], silentStarts: 0, calls: [], waits: new Map() };
  tallies.add(tally);
  return {
    stop(durationMs) {
      tallies.delete(tally);
      return criticalPath(tally, durationMs);
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function criticalPath({ starts, silentStarts, calls, waits }: Tally, durationMs: number): CriticalPath {
  const slowCalls = [...calls].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST);
  const fixedWaits = [...waits]
    .map(([what, w]) => ({ what, ms: w.ms, count: w.count }))
    .sort((a, b) => b.ms * b.count - a.ms * a.count);
  const startsOf =
    starts.length + silentStarts === 0
      ? undefined
      : {
          count: starts.length + silentStarts,
          medianMs: Math.round(median(starts) ?? 0),
          maxMs: Math.round(Math.max(0, ...starts)),
          totalMs: Math.round(starts.reduce((a, b) => a + b, 0)),
        };
  const parts = [
    ...(startsOf
      ? [`${startsOf.count} server start${startsOf.count === 1 ? '' : 's'} at ${seconds(startsOf.medianMs)} each`]
      : []),
    ...slowCalls
      .slice(0, 2)
      .filter((c) => c.ms >= 100)
      .map((c) => `${callName(c)} ${seconds(c.ms)}`),
    ...fixedWaits
      .slice(0, 2)
      .map((w) => `${w.count > 1 ? `${w.count} × ` : ''}${seconds(w.ms)} ${w.what.replace(/ \(.*\)$/, '')}`),
  ];
  return {
    line: `${seconds(durationMs)}: ${parts.length > 0 ? parts.join('; ') : 'no server start, slow request or fixed wait'}`,
    ...(startsOf && { starts: startsOf }),
    slowCalls,
    fixedWaits,
  };
}

/** `tool \`name\`` for a tools/call, else the method and what it names. */
const callName = (c: Call) =>
  c.method === 'tools/call' && c.name !== undefined
    ? `tool \`${c.name}\``
    : `${c.method}${c.name === undefined ? '' : ` \`${c.name}\``}`;
