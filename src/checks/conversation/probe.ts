// The conversation area's progress probe: one call of each callable tool and each list, with progress tokens, on a
// session of its own; and what the progress, cancellation and logging checks read from it.
import fc from 'fast-check';
import type { TranscriptEntry } from '../../schema/generated/report.js';
import type { InboundEvent, Reply, Session } from '../../session/session.js';
import { RequestTimeout, seconds } from '../../session/session.js';
import { schemaArbitraries } from '../../generate/schema-arbitrary.js';
import { callableTools } from '../../generate/tool-policy.js';
import { isObject } from '../../json.js';
import { STATELESS_REVISION } from '../../schema/revisions.js';
import { type CheckContext, type Outcome, fail, warn } from '../kit/check.js';
import { slowMessage } from '../kit/timeouts.js';

/** A response that crosses a cancellation on the wire is no fault; one that comes later than this after it is. */
export const CANCEL_GRACE_MS = 1000;
/** How long after the last answer a probe still listens (for progress that should have stopped, logs on their way). */
export const LINGER_MS = 300;
/** A call that answered sooner than this cannot be cancelled reliably after it started. */
const MIN_SLOW_MS = 300;

interface Progress {
  params: Record<string, unknown>;
  entry: TranscriptEntry;
}

/** One request sent with a progressToken, and what came for it. */
interface Traced {
  label: string;
  /** Its request id, when the caller chose it. */
  id?: string;
  method: string;
  params: Record<string, unknown>;
  token: string | number;
  sentAt: number;
  reply?: Reply;
  /** Milliseconds to the answer. */
  tookMs?: number;
  /** Why there is no reply (a timeout, a lost server). */
  failed?: string;
  timedOut?: boolean;
  progress: Progress[];
  /** Milliseconds to its first progress. */
  firstProgressMs?: number;
  /** A tools/call still unanswered MIN_SLOW_MS after its first progress: working, so it can be cancelled after it started. */
  working?: boolean;
  /** Answered, or given up on. */
  settled: Promise<void>;
  /**
   * A tools/call that reported fewer than two progress notifications, called once more with its numeric arguments at
   * the upper end of their range (see upperEnd): how much work a tool does may be an argument, and whether progress
   * can be seen to go backwards must not hang on the value the seed drew.
   */
  again?: Traced;
}

interface Probe {
  session: Session;
  traces: Traced[];
  /** Tools the policy (or their input schema) leaves out, with why. */
  leftOut: string[];
  /** Tools it found slow (a check that started before it ended does not see them in its slowTools). */
  slow: Map<string, string>;
}

/**
 * The probe under way. What waits on a slow tool waits once, beside the probe, not after it: the cancellation starts
 * its call as soon as the probe finds one working, and the logging checks as soon as every call is answered or working.
 */
interface ProbeRun {
  /** Its tool calls, as they were sent. */
  calls: Call[];
  traces: Traced[];
  /** The first tools/call found working; undefined once every call is sorted and none is. */
  working: Promise<Traced | undefined>;
  /** Every call answered, given up on, or found working: the tools to leave out of further calls, with why. */
  sorted: Promise<Map<string, string>>;
  /** Every call of the first round answered or given up on (before any is called again at the upper end). */
  traced: Promise<Traced[]>;
  done: Promise<Probe>;
}

type Call = { label: string; method: string; params: Record<string, unknown> };
export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const PROGRESS_KEY = 'conversation/progress-probe';

/**
 * Arguments with each property the schema gives a `default` set to it: a value the server's author chose, likelier to
 * make the tool do its real work (and report progress or log on the way) than drawn extremes such as a negative step count.
 */
function withDefaults(schema: unknown, args: unknown): unknown {
  if (!isObject(schema) || !isObject(schema.properties) || !isObject(args)) return args;
  const defaults = Object.entries(schema.properties).filter(([, p]) => isObject(p) && p.default !== undefined);
  return { ...args, ...Object.fromEntries(defaults.map(([k, p]) => [k, (p as Record<string, unknown>).default])) };
}

/** One call of each tool the policy lets the run call, with valid arguments drawn from the run's seed (schema defaults kept); the rest with why. */
export function toolCalls(
  ctx: CheckContext,
  foundSlow: ReadonlyMap<string, string> = new Map(),
): { calls: Call[]; leftOut: string[] } {
  const { callable, skipped } = callableTools(ctx.profile.tools, ctx.toolCalls);
  const leftOut = skipped.map((s) => `${s.tool} (${s.reason})`);
  const calls = [];
  for (const tool of callable) {
    const name = String(tool.name);
    const slow = ctx.slowTools.get(name) ?? foundSlow.get(name);
    if (slow) {
      leftOut.push(`${name} (${slow})`);
      continue;
    }
    const valid = schemaArbitraries(tool.inputSchema).valid;
    if (!valid.ok) {
      leftOut.push(`${name} (${valid.reason})`);
      continue;
    }
    const args = withDefaults(tool.inputSchema, fc.sample(valid.arbitrary, { seed: ctx.seed, numRuns: 1 })[0]);
    calls.push({ label: `tools/call ${name}`, method: 'tools/call', params: { name, arguments: args } });
  }
  return { calls, leftOut };
}

/** The value a numeric argument takes when no maximum bounds it: enough steps for a counting tool, short for a duration. */
const UNBOUNDED_UPPER = 10;

/**
 * The arguments with each top-level numeric one at the upper end of its schema's range (its maximum, else
 * UNBOUNDED_UPPER when that is more); undefined when that changes nothing.
 */
export function upperEnd(schema: unknown, args: unknown): Record<string, unknown> | undefined {
  if (!isObject(schema) || !isObject(schema.properties) || !isObject(args)) return undefined;
  const raised: Record<string, unknown> = { ...args };
  let changed = false;
  for (const [name, value] of Object.entries(args)) {
    const p = schema.properties[name];
    if (typeof value !== 'number' || !isObject(p)) continue;
    const integer = p.type === 'integer';
    const exclusive = typeof p.exclusiveMaximum === 'number' ? p.exclusiveMaximum : undefined;
    const top =
      typeof p.maximum === 'number'
        ? p.maximum
        : exclusive !== undefined
          ? integer
            ? Math.ceil(exclusive) - 1
            : exclusive - Math.abs(exclusive) * 1e-9 - 1e-9
          : Math.max(value, UNBOUNDED_UPPER);
    const upper = integer ? Math.floor(top) : top;
    // A multipleOf or an enum is left alone: the raised value must stay valid.
    if (upper > value && p.multipleOf === undefined && p.enum === undefined && p.const === undefined) {
      raised[name] = upper;
      changed = true;
    }
  }
  return changed ? raised : undefined;
}

/** The list requests of the declared capabilities, which a server may report progress for as well. */
function listCalls(ctx: CheckContext) {
  const lists = [
    ['tools', 'tools/list'],
    ['resources', 'resources/list'],
    ['prompts', 'prompts/list'],
  ].filter(([capability]) => ctx.profile.capabilities[capability] !== undefined);
  return lists.map(([, method]) => ({ label: method, method, params: {} }));
}

let tokens = 0;
/** Unique tokens of both JSON types the spec allows: strings and integers. */
export const nextToken = (): string | number =>
  ++tokens % 2 === 0 ? 4242 + tokens : `mcp-conformance-progress-${tokens}`;

/**
 * Sends each request with a progressToken of its own, at once, and records the progress that names it until the
 * answers (and a little after). `working` is told of the first tools/call found working, `sorted` once no call is
 * left that is neither answered nor working.
 */
export function trace(
  session: Session,
  requests: Call[],
  timeoutMs: number,
  idOf?: (token: string | number) => string,
) {
  let sortedCount = 0;
  let isSorted = () => {};
  const sorted = new Promise<void>((resolve) => (isSorted = resolve));
  let found = (_t: Traced | undefined) => {};
  const working = new Promise<Traced | undefined>((resolve) => (found = resolve));
  void sorted.then(() => found(undefined));
  const sort = () => ++sortedCount === requests.length && isSorted();
  const traces: Traced[] = requests.map((r) => {
    const token = nextToken();
    return { ...r, token, ...(idOf && { id: idOf(token) }), sentAt: 0, progress: [], settled: Promise.resolve() };
  });
  const byToken = new Map(traces.map((t) => [JSON.stringify(t.token), t]));
  const stop = session.onInbound((e: InboundEvent) => {
    const params =
      e.message?.method === 'notifications/progress' && isObject(e.message.params) ? e.message.params : undefined;
    const t = params && byToken.get(JSON.stringify(params.progressToken));
    if (!t) return;
    t.progress.push({ params: params!, entry: e.line.entry });
    if (t.progress.length > 1 || t.method !== 'tools/call' || t.reply || t.failed) return;
    t.firstProgressMs = Math.round(performance.now() - t.sentAt);
    setTimeout(() => {
      if (t.reply || t.failed) return;
      t.working = true;
      found(t);
      sort();
    }, MIN_SLOW_MS);
  });
  for (const t of traces) {
    t.sentAt = performance.now();
    t.settled = session
      .request(t.method, { ...t.params, _meta: { progressToken: t.token } }, { timeoutMs, ...(t.id && { id: t.id }) })
      .then(
        (reply) => {
          t.reply = reply;
          t.tookMs = Math.round(performance.now() - t.sentAt);
        },
        (err: Error) => {
          t.failed = err.message;
          t.timedOut = err instanceof RequestTimeout;
        },
      );
    void t.settled.then(() => t.working || sort());
  }
  if (traces.length === 0) isSorted();
  const done = Promise.all(traces.map((t) => t.settled)).then(async () => {
    await delay(LINGER_MS);
    stop();
    return traces;
  });
  return { traces, working, sorted, done };
}

/** Tools a probe call of which went unanswered within --timeout: the run calls them no more (ARCHITECTURE.md, timeouts). */
function unanswered(ctx: CheckContext, traces: Traced[]): Map<string, string> {
  const slow = new Map<string, string>();
  for (const t of traces) {
    const name = String(t.params.name);
    if (t.timedOut && t.method === 'tools/call')
      slow.set(
        name,
        ctx.slowTools.get(name) ?? slowMessage([`tool ${name} (tools/call) within ${seconds(ctx.timeoutMs)}`]),
      );
  }
  return slow;
}

/** The run's one progress probe: list requests and one call of each callable tool, each with a progressToken, on a session of its own. */
export function probeRun(ctx: CheckContext): Promise<ProbeRun> {
  return ctx.memo(PROGRESS_KEY, async () => {
    // On the stateless wire each request carries its own state: the probe goes on the run's second connection.
    const session =
      ctx.profile.revision === STATELESS_REVISION ? (await ctx.elsewhere()).session : await ctx.ownSession();
    const tools = ctx.profile.capabilities.tools === undefined ? { calls: [], leftOut: [] } : toolCalls(ctx);
    const run = trace(session, [...listCalls(ctx), ...tools.calls], ctx.timeoutMs);
    const sorted = run.sorted.then(() => {
      const skip = unanswered(ctx, run.traces);
      for (const t of run.traces)
        if (t.working)
          skip.set(
            String(t.params.name),
            `still working ${MIN_SLOW_MS} ms after its first progress in the progress probe`,
          );
      return skip;
    });
    const done = run.done.then(async (traces) => {
      const slow = unanswered(ctx, traces);
      for (const [name, why] of slow) if (!ctx.slowTools.has(name)) ctx.slowTools.set(name, why);
      await callAgain(ctx, session, traces);
      return { session, traces, leftOut: tools.leftOut, slow };
    });
    return { calls: tools.calls, traces: run.traces, working: run.working, sorted, traced: run.done, done };
  });
}

/**
 * Each answered tools/call of the probe that reported fewer than two progress notifications, called once more (all at
 * once) with its numeric arguments at the upper end of their range: `again` on its trace. A second call that is not
 * answered within --timeout is left out (the first call answered: the tool is not slow at the values the run uses).
 */
async function callAgain(ctx: CheckContext, session: Session, traces: Traced[]): Promise<void> {
  const schemas = new Map(ctx.profile.tools.map((t) => [String(t.name), t.inputSchema]));
  const firsts: Traced[] = [];
  const calls: Call[] = [];
  for (const t of traces) {
    if (t.method !== 'tools/call' || !t.reply || t.progress.length >= 2) continue;
    const name = String(t.params.name);
    const raised = upperEnd(schemas.get(name), t.params.arguments);
    if (!raised) continue;
    firsts.push(t);
    calls.push({
      label: `tools/call ${name} (again, arguments ${JSON.stringify(raised)})`,
      method: 'tools/call',
      params: { name, arguments: raised },
    });
  }
  if (calls.length === 0) return;
  const again = await trace(session, calls, ctx.timeoutMs).done;
  again.forEach((t, i) => {
    if (t.reply) firsts[i].again = t;
  });
}

export const progressProbe = async (ctx: CheckContext): Promise<Probe> => (await probeRun(ctx)).done;

/** When to cancel a call of the target's tool (unless its own progress shows sooner that it started): as the probe's call was found working, or a quarter of its time in. */
const cancelAfter = (target: Traced, timeoutMs: number) =>
  target.working ? target.firstProgressMs! + MIN_SLOW_MS : Math.round((target.tookMs ?? timeoutMs) / 4);

/**
 * When the probe found no call working: a new call of its slowest tool (see slowTarget), to be cancelled at its own
 * first progress or a quarter of the probe's time in, with the probe's call as its twin; without one, why.
 */
export async function callSlowest(
  session: Session,
  probe: Probe,
  timeoutMs: number,
): Promise<{ target: Traced; twin: Traced } | { skipped: string }> {
  const { target: twin, skipped } = slowTarget(probe);
  if (!twin) return { skipped };
  const one = trace(
    session,
    [{ label: twin.label, method: twin.method, params: twin.params }],
    2 * timeoutMs,
    (token) => `mcp-conformance-cancel-${token}`,
  );
  await Promise.race([one.working, delay(cancelAfter(twin, timeoutMs)), one.traces[0].settled]);
  return { target: one.traces[0], twin };
}

/** What is wrong with the progress one request got: after its answer (stdio only: one ordered stream), not increasing, past its total. */
export function judgeProgress(t: Traced, ordered: boolean): Outcome[] {
  const outcomes: Outcome[] = [];
  // In the order the frames came (the answer resolves the request a turn after its frame is read).
  const after = t.reply ? t.progress.filter((p) => p.entry.seq > t.reply!.entry.seq) : [];
  if (ordered && after.length > 0) {
    outcomes.push(
      fail(`${t.label}: ${after.length} progress notification(s) came after its response`, {
        expected: 'no progress once the request is answered',
        actual: after.map((p) => p.params),
      }),
    );
  }
  const values = t.progress.map((p) => p.params.progress).filter((v): v is number => typeof v === 'number');
  // "MUST increase with each notification": a value equal to the one before fails as a decrease does (the official
  // suite accepts equal values); the message says which of the two it was.
  const stuck = values.findIndex((v, i) => i > 0 && v <= values[i - 1]);
  if (stuck > 0) {
    const [before, now] = [values[stuck - 1], values[stuck]];
    outcomes.push(
      fail(
        now === before
          ? `${t.label}: progress stayed at ${now} (equal to the one before: no increase)`
          : `${t.label}: progress went from ${before} back to ${now} (decreasing)`,
        { expected: 'each progress value larger than the one before', actual: values },
      ),
    );
  }
  const past = t.progress.find(
    (p) =>
      typeof p.params.total === 'number' && typeof p.params.progress === 'number' && p.params.progress > p.params.total,
  );
  if (past)
    outcomes.push(
      warn(`${t.label}: progress ${String(past.params.progress)} is past its total ${String(past.params.total)}`, {
        expected: 'progress ≤ total',
        actual: past.params,
      }),
    );
  return outcomes;
}

/**
 * The probe's tool call that answered slowly enough to be cancelled after it started, longest first: one that reported
 * progress well before its answer, else one far slower than the probe's other calls (all of which were sent at once, so each waited
 * for the others a while); failing those, one still working at the timeout that had reported progress. Without one, why.
 */
export function slowTarget({ traces, leftOut }: Probe): { target?: Traced; skipped: string } {
  const calls = traces.filter((t) => t.method === 'tools/call');
  const times = calls
    .filter((t) => t.reply)
    .map((t) => t.tookMs!)
    .sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  // Progress that came in one burst with the answer shows no work in between to cancel: it counts from its first frame.
  const working = (t: Traced) =>
    t.reply !== undefined && t.progress.length > 0 && t.reply.entry.t - t.progress[0].entry.t >= MIN_SLOW_MS;
  const slow = (t: Traced) =>
    t.reply !== undefined && t.tookMs! >= MIN_SLOW_MS && (working(t) || t.tookMs! >= 3 * median);
  const answered = calls.filter(slow).sort((a, b) => Number(working(b)) - Number(working(a)) || b.tookMs! - a.tookMs!);
  const target = answered[0] ?? calls.find((t) => t.timedOut && t.progress.length > 0);
  const slowest = calls.filter((t) => t.reply).sort((a, b) => b.tookMs! - a.tookMs!)[0];
  const why = slowest
    ? `the slowest, ${slowest.label}, answered in ${slowest.tookMs} ms without progress, beside ${median} ms for half the calls`
    : 'no tool was called';
  return {
    target,
    skipped: `no safe tool ran long enough to be cancelled after it started (${why})${leftOut.length > 0 ? `; left out: ${leftOut.join(', ')}` : ''}`,
  };
}

export const excerpt = (traces: Traced[]) =>
  traces
    .flatMap((t) => [...(t.reply ? [t.reply.sent, t.reply.entry] : []), ...t.progress.map((p) => p.entry)])
    .sort((a, b) => a.seq - b.seq);
