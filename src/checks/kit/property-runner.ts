// Runs a fast-check property against the live server. Every generated value is sent (many in flight on the
// shared session) and judged like a check; the worst verdict is then shrunk, one request at a time, to a small
// counterexample. The values come from the run's seed, so the same seed and server give the same verdicts.
import fc from 'fast-check';
import { type CheckContext, type Outcome, fail, pass, warn, worstOf } from './check.js';
import { slowMessage, timeoutVerdict } from './timeouts.js';
import { interleave } from '../../generate/interleave.js';
import type { TranscriptEntry } from '../../schema/generated/report.js';
import {
  type Reply,
  type RequestId,
  RequestTimeout,
  type Session,
  SessionClosed,
  seconds,
} from '../../session/session.js';

/** Requests one property keeps in flight on the shared session, at most. */
const IN_FLIGHT = 32;
/** Requests spent shrinking one counterexample at most, within one --timeout (at a second per answer, 100 requests would take minutes). */
const SHRINK_BUDGET = 100;

export type Request = (
  method: string,
  params?: unknown,
  opts?: { id?: RequestId; timeoutMs?: number },
) => Promise<Reply>;

/** Values of one part of a property (one tool's calls), with a share of the runs of its own. */
export interface Stratum<T> {
  /** Names the part in per-part counts, and mixes into its seed. */
  label: string;
  arbitrary: fc.Arbitrary<T>;
  /** Values tried before the generated ones (they count towards `runs`). */
  examples: T[];
  runs: number;
}

export interface Property<T> {
  id: string;
  /** What the values are, plural, for messages: "unknown tool names". */
  what: string;
  arbitrary?: fc.Arbitrary<T>;
  /** Values tried before the generated ones (they count towards the runs). */
  examples?: T[];
  /** Parts with shares of their own, sent interleaved, instead of `arbitrary` and `examples` drawn ctx.runs times. */
  strata?: Stratum<T>[];
  /**
   * A part of the server a value may find slow (a tool): a timeout then leaves that part out of the property, and of
   * every property given the same `left` (the run's), instead of ending the property.
   */
  slow?: { of(value: T): string | undefined; left: Map<string, string> };
  /** Sends one value and judges the answer (pass, warn or fail). A timeout or exit it throws is the server's failure. */
  judge(value: T, request: Request): Promise<Outcome>;
  /** A session of the property's own; default: the shared session. */
  session?: Session;
  /**
   * One value at a time on its own session, whose every frame in between is the value's transcript (the judge reads
   * what the session received around its value); default: many values in flight, each with its own exchanges.
   */
  oneAtATime?: boolean;
  /** When two values count as the same, to send each once (default: the value as it goes on the wire, JSON). */
  key?(value: T): string;
  /** The counterexample as reported (default: the value itself). */
  describe?(value: T): unknown;
  /** Appended to the message, e.g. the tools left out and why; as a function, of the values sent per stratum label. */
  note?: string | ((sent: Map<string, number>) => string);
}

interface Run<T> {
  value: T;
  verdict?: Outcome;
  /** The server did not answer: it timed out or exited. */
  lost?: RequestTimeout | SessionClosed;
  /** The value's slow part did not answer it in time (see Property.slow), or had not before it was sent (`left`). */
  slow?: { part: string; timeout?: RequestTimeout };
  transcript: TranscriptEntry[];
}

/** A seed for a run that was given none. */
export const randomSeed = (): number => Math.floor(Math.random() * 2 ** 31);

/** The run's seed mixed with the property id (FNV-1a), so adding a property changes no other property's values. */
function seedOf(seed: number, id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h ^ seed) | 0;
}

/**
 * How many values a property keeps in flight: as many as the server answers in a quarter of the timeout, by Little's
 * law (in flight = answers per ms × ms in flight), measured again after each window's worth of answers. So a
 * sequential server's queue never looks like one that stopped answering, and one that answers side by side (over
 * HTTP) gets more at once as it shows it can.
 */
class Window {
  private since = performance.now();
  private answers = 0;

  constructor(
    public size: number,
    private readonly quarterMs: number,
  ) {}

  answered(): void {
    if (++this.answers < this.size) return;
    const now = performance.now();
    this.size = Math.max(
      1,
      Math.min(IN_FLIGHT, Math.floor((this.answers * this.quarterMs) / Math.max(1, now - this.since))),
    );
    [this.since, this.answers] = [now, 0];
  }
}

/**
 * Calls `fn` on the items with at most `window.size` pending, starting them in order (so requests go out in order),
 * until `stop()` says so; returns the results of the ones started.
 */
function inOrder<T, R>(
  items: T[],
  window: Window | undefined,
  fn: (item: T) => Promise<R>,
  stop: () => boolean,
): Promise<R[]> {
  const out: R[] = [];
  let next = 0;
  let pending = 0;
  return new Promise((resolve, reject) => {
    const pump = () => {
      while (next < items.length && !stop() && pending < (window?.size ?? 1)) {
        const i = next++;
        pending++;
        fn(items[i]).then((r) => {
          out[i] = r;
          pending--;
          window?.answered();
          pump();
        }, reject);
      }
      if (pending === 0) resolve(out);
    };
    pump();
  });
}

/** Long strings cut for the report; the replay command reproduces the whole value. */
function brief(v: unknown): unknown {
  if (typeof v === 'string') return v.length > 200 ? `${v.slice(0, 200)}… (${v.length} characters)` : v;
  if (Array.isArray(v)) return v.map(brief);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, brief(x)]));
  return v;
}

/** The parts that timed out, each with the time it was given: named in the verdict, left out of the rest of the run. */
function slowParts(timedOut: Run<unknown>[]): string {
  const parts = new Map(timedOut.map((r) => [r.slow!.part, r.slow!.timeout!]));
  return `${slowMessage([...parts].map(([part, t]) => `tool ${part} (${t.method}) within ${seconds(t.ms)}`))}; left out of generated calls for the rest of the run`;
}

/** Runs `property` for ctx.runs values (or each stratum's runs) and turns the verdicts into one outcome. */
export async function checkProperty<T>(ctx: CheckContext, property: Property<T>): Promise<Outcome> {
  // One stratum unlabelled: seeded by the property id alone (a labelled stratum's seed adds its label).
  const strata = property.strata ?? [
    { label: '', arbitrary: property.arbitrary!, examples: property.examples ?? [], runs: ctx.runs },
  ];
  const seeds = strata.map((s) => seedOf(ctx.seed, s.label ? `${property.id}/${s.label}` : property.id));
  const { session, slow } = property;
  const describe = (v: T) => brief(property.describe ? property.describe(v) : v);
  let note = '';
  const replay = `\nreplay: ${ctx.replay(property.id)}`;

  let lostOne = false;
  // A part's first value goes alone: its others wait for its answer, so a slow part costs one timeout and one call.
  const firstOf = new Map<string, Promise<unknown>>();
  /** Every request of the property that timed out (values in flight when the first did time out too). */
  const unanswered: TranscriptEntry[] = [];
  const runOne = async (value: T): Promise<Run<T>> => {
    const part = slow?.of(value);
    if (part !== undefined) {
      const first = firstOf.get(part);
      if (first) await first;
      if (slow!.left.has(part)) return { value, slow: { part }, transcript: [] };
      if (!first) {
        const run = judged(value, part);
        firstOf.set(
          part,
          run.catch(() => {}),
        );
        return run;
      }
    }
    return judged(value, part);
  };
  const judged = async (value: T, part: string | undefined): Promise<Run<T>> => {
    const transcript: TranscriptEntry[] = [];
    const sliced = property.oneAtATime ? session : undefined;
    const from = sliced?.transcript.length ?? 0;
    const request: Request = async (method, params, opts) => {
      const reply = await (session ? session.request(method, params, opts) : ctx.request(method, params, opts));
      if (!sliced) transcript.push(reply.sent, reply.entry);
      return reply;
    };
    const run: Run<T> = { value, transcript };
    try {
      run.verdict = await property.judge(value, request);
    } catch (e) {
      if (!(e instanceof RequestTimeout || e instanceof SessionClosed)) throw e;
      // The request stays in the transcript: an answer that comes after the timeout is noted on this check.
      if (e instanceof RequestTimeout && e.exchange) {
        if (!sliced) transcript.push(e.exchange.sent);
        unanswered.push(e.exchange.sent);
      }
      if (part !== undefined && e instanceof RequestTimeout) {
        // Slow, not gone: the rest of the run leaves this part out, and goes on with the others.
        if (!slow!.left.has(part))
          slow!.left.set(
            part,
            `no answer within ${e.ms} ms to a generated call in ${property.id}: not called again in this run`,
          );
        run.slow = { part, timeout: e };
        return run;
      }
      run.lost = e;
      // The first value left unanswered is the verdict: sending more would only wait out more timeouts.
      lostOne = true;
    }
    if (sliced) transcript.push(...sliced.transcript.slice(from));
    return run;
  };

  const lostOutcome = (run: Run<T>) => {
    // The other requests that timed out are in the transcript too: an answer one gets later is noted on this check.
    const transcript = [...run.transcript, ...unanswered.filter((e) => !run.transcript.includes(e))];
    const detail = {
      expected: 'an answer to every request, and a server that keeps running',
      actual: { counterexample: describe(run.value) },
      transcript,
    };
    // A server that died failed; a timeout's verdict depends on what was asked (a slow tool may need a longer --timeout).
    if (run.lost instanceof RequestTimeout) {
      const verdict = timeoutVerdict(ctx.profile, run.lost);
      return (verdict.status === 'fail' ? fail : warn)(
        `${verdict.message}, at the generated value below${note}${replay}`,
        { ...detail, silent: verdict.silent },
      );
    }
    // The lost session's own tail: the shared server may have been restarted since.
    const exited = !session ? `\nserver stderr:\n${(run.lost as SessionClosed).stderr ?? ctx.stderrTail()}` : '';
    return fail(
      `the server stopped answering at the generated value below (the first left unanswered): ${run.lost!.message}${exited}${note}${replay}`,
      detail,
    );
  };

  // Each value is sent once, as it goes on the wire: a repeat tells nothing new (and a repeated request id would
  // break the rule that ids are unique in a session). `origin` maps a value back to its stratum and its index in that stratum's sample, for shrinking.
  const sent = new Set<string>();
  const origin = new Map<T, { stratum: number; index: number }>();
  let sampledCount = 0;
  const values = interleave(
    strata.map((s, k) => {
      const sampled = fc.sample(s.arbitrary, { seed: seeds[k], numRuns: s.runs, examples: s.examples });
      sampledCount += sampled.length;
      return sampled.flatMap((v, index) => {
        const wire = property.key ? property.key(v) : (JSON.stringify(v) ?? 'undefined');
        if (sent.has(wire)) return [];
        sent.add(wire);
        origin.set(v, { stratum: k, index });
        return [v];
      });
    }),
  );
  const repeats = sampledCount - values.length;
  // The first value to be answered goes alone and times the server, which sets the first window (see Window).
  const heads: Run<T>[] = [];
  let window: Window | undefined;
  while (heads.length < values.length && !lostOne) {
    const t = performance.now();
    const head = await runOne(values[heads.length]);
    heads.push(head);
    if (head.slow) continue;
    if (!property.oneAtATime)
      window = new Window(
        Math.max(1, Math.min(IN_FLIGHT, Math.floor(ctx.timeoutMs / 4 / Math.max(1, performance.now() - t)))),
        ctx.timeoutMs / 4,
      );
    break;
  }
  const all = [...heads, ...(await inOrder(values.slice(heads.length), window, runOne, () => lostOne))];
  const runs = all.filter((r) => !r.slow);
  // A value that timed out was sent all the same; one whose part had timed out before was not.
  const sentRuns = all.filter((r) => !r.slow || r.slow.timeout);
  const perStratum = new Map(strata.map((s) => [s.label, 0]));
  for (const r of sentRuns) {
    const { label } = strata[origin.get(r.value)!.stratum];
    perStratum.set(label, perStratum.get(label)! + 1);
  }
  const noted = typeof property.note === 'function' ? property.note(perStratum) : property.note;
  note = noted ? `\n${noted}` : '';
  const lost = runs.find((r) => r.lost);
  if (lost) return lostOutcome(lost);
  const unsent = all.length - sentRuns.length;
  const generated = `${sentRuns.length} generated ${property.what}${repeats > 0 ? ` (${repeats} repeated value(s) not sent again)` : ''}${unsent > 0 ? ` (${unsent} not sent: their tool had timed out)` : ''}`;
  const timedOut = all.filter((r) => r.slow?.timeout);
  const slowNote = timedOut.length === 0 ? '' : `\n${slowParts(timedOut)}`;
  const worstRun = worstOf(runs, (r) => r.verdict!.status);
  const bad =
    worstRun && (worstRun.verdict!.status === 'fail' || worstRun.verdict!.status === 'warn')
      ? runs.filter((r) => r.verdict!.status === worstRun.verdict!.status)
      : undefined;
  if (!bad) {
    const counts = new Map<string, number>();
    for (const r of runs) counts.set(r.verdict!.message, (counts.get(r.verdict!.message) ?? 0) + 1);
    const tally = [...counts].sort((a, b) => b[1] - a[1]).map(([message, n]) => `${n}× ${message}`);
    const summary = `${generated}: ${tally.join('; ')}${note}`;
    if (timedOut.length === 0) return pass(summary, { transcript: runs[0]?.transcript });
    const first = timedOut[0];
    return warn(`${slowParts(timedOut)}\n${summary}`, {
      expected: 'an answer within the timeout',
      actual: { counterexample: describe(first.value) },
      transcript: first.transcript,
    });
  }

  // Shrink the first value with the worst verdict: fast-check replays the run at its index (path) and shrinks from there.
  const first = bad[0];
  const status = first.verdict!.status;
  let last = first;
  let budget = SHRINK_BUDGET;
  const shrinkUntil = performance.now() + ctx.timeoutMs;
  let gone: Run<T> | undefined;
  let harness: unknown;
  const { stratum, index } = origin.get(first.value)!;
  const { arbitrary, examples, runs: numRuns } = strata[stratum];
  const shrinking = fc.asyncProperty(arbitrary, async (value) => {
    if (budget-- <= 0 || performance.now() > shrinkUntil || gone || harness) return true;
    try {
      const run = await runOne(value);
      if (run.lost) gone = run;
      if (run.lost || run.slow || run.verdict!.status !== status) return true;
      last = run;
      return false;
    } catch (e) {
      harness = e;
      return true;
    }
  });
  const details = await fc.check(shrinking, {
    seed: seeds[stratum],
    numRuns,
    examples: examples.map((e) => [e] as [T]),
    path: String(index),
  });
  if (harness) throw harness;
  if (gone) return lostOutcome(gone);
  const verdict = last.verdict!;
  const summary = `${bad.length} of ${generated} ${status === 'fail' ? 'failed' : 'warned'}; the counterexample below is shrunk in ${details.numShrinks} step(s)`;
  return (status === 'fail' ? fail : warn)(`${verdict.message}\n${summary}${slowNote}${note}${replay}`, {
    expected: verdict.expected,
    actual: { counterexample: describe(last.value), answer: verdict.actual },
    transcript: last.transcript,
  });
}
