// What a real client does besides asking: it follows progress, cancels what it no longer needs, sets a log level.
import fc from 'fast-check';
import type { TranscriptEntry } from '../schema/generated/report.js';
import type { InboundEvent, Reply, Session } from '../session/session.js';
import { RequestTimeout, seconds } from '../session/session.js';
import { REVISIONS, SCHEMA_REVISIONS, STATELESS_REVISION } from '../schema/validators.js';
import { schemaArbitraries } from '../generate/schema-arbitrary.js';
import { callableTools } from '../generate/tool-policy.js';
import { isObject } from '../json.js';
import { overStdio } from '../transport/transport.js';
import { type CheckContext, type CheckDef, type Outcome, errorOf, fail, pass, requirement, skip, warn, worst } from './check.js';
import { slowMessage } from './timeouts.js';
import { httpOf } from './http.js';
import { LOG_LEVEL, LOG_LEVELS, belowLevel } from './conversation-rules.js';

/** A response that crosses a cancellation on the wire is no fault; one that comes later than this after it is. */
export const CANCEL_GRACE_MS = 1000;
/** How long after the last answer a probe still listens (for progress that should have stopped, logs on their way). */
const LINGER_MS = 300;
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
  done: Promise<Probe>;
}

type Call = { label: string; method: string; params: Record<string, unknown> };
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
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
function toolCalls(ctx: CheckContext, foundSlow: ReadonlyMap<string, string> = new Map()): { calls: Call[]; leftOut: string[] } {
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
const nextToken = (): string | number => (++tokens % 2 === 0 ? 4242 + tokens : `mcp-conformance-progress-${tokens}`);

/**
 * Sends each request with a progressToken of its own, at once, and records the progress that names it until the
 * answers (and a little after). `working` is told of the first tools/call found working, `sorted` once no call is
 * left that is neither answered nor working.
 */
function trace(session: Session, requests: Call[], timeoutMs: number, idOf?: (token: string | number) => string) {
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
    const params = e.message?.method === 'notifications/progress' && isObject(e.message.params) ? e.message.params : undefined;
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
    t.settled = session.request(t.method, { ...t.params, _meta: { progressToken: t.token } }, { timeoutMs, ...(t.id && { id: t.id }) }).then(
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
    if (t.timedOut && t.method === 'tools/call') slow.set(name, ctx.slowTools.get(name) ?? slowMessage([`tool ${name} (tools/call) within ${seconds(ctx.timeoutMs)}`]));
  }
  return slow;
}

/** The run's one progress probe: list requests and one call of each callable tool, each with a progressToken, on a session of its own. */
function probeRun(ctx: CheckContext): Promise<ProbeRun> {
  return ctx.memo(PROGRESS_KEY, async () => {
    const session = await ctx.ownSession();
    const tools = ctx.profile.capabilities.tools === undefined ? { calls: [], leftOut: [] } : toolCalls(ctx);
    const run = trace(session, [...listCalls(ctx), ...tools.calls], ctx.timeoutMs);
    const sorted = run.sorted.then(() => {
      const skip = unanswered(ctx, run.traces);
      for (const t of run.traces) if (t.working) skip.set(String(t.params.name), `still working ${MIN_SLOW_MS} ms after its first progress in the progress probe`);
      return skip;
    });
    const done = run.done.then((traces) => {
      const slow = unanswered(ctx, traces);
      for (const [name, why] of slow) if (!ctx.slowTools.has(name)) ctx.slowTools.set(name, why);
      return { session, traces, leftOut: tools.leftOut, slow };
    });
    return { calls: tools.calls, traces: run.traces, working: run.working, sorted, done };
  });
}

const progressProbe = async (ctx: CheckContext): Promise<Probe> => (await probeRun(ctx)).done;

/** When to cancel a call of the target's tool (unless its own progress shows sooner that it started): as the probe's call was found working, or a quarter of its time in. */
const cancelAfter = (target: Traced, timeoutMs: number) => (target.working ? target.firstProgressMs! + MIN_SLOW_MS : Math.round((target.tookMs ?? timeoutMs) / 4));

/**
 * When the probe found no call working: a new call of its slowest tool (see slowTarget), to be cancelled at its own
 * first progress or a quarter of the probe's time in, with the probe's call as its twin; without one, why.
 */
async function callSlowest(session: Session, probe: Probe, timeoutMs: number): Promise<{ target: Traced; twin: Traced } | { skipped: string }> {
  const { target: twin, skipped } = slowTarget(probe);
  if (!twin) return { skipped };
  const one = trace(session, [{ label: twin.label, method: twin.method, params: twin.params }], 2 * timeoutMs, (token) => `mcp-conformance-cancel-${token}`);
  await Promise.race([one.working, delay(cancelAfter(twin, timeoutMs)), one.traces[0].settled]);
  return { target: one.traces[0], twin };
}

/** What is wrong with the progress one request got: after its answer (stdio only: one ordered stream), not increasing, past its total. */
function judgeProgress(t: Traced, ordered: boolean): Outcome[] {
  const outcomes: Outcome[] = [];
  // In the order the frames came (the answer resolves the request a turn after its frame is read).
  const after = t.reply ? t.progress.filter((p) => p.entry.seq > t.reply!.entry.seq) : [];
  if (ordered && after.length > 0) {
    outcomes.push(fail(`${t.label}: ${after.length} progress notification(s) came after its response`, { expected: 'no progress once the request is answered', actual: after.map((p) => p.params) }));
  }
  const values = t.progress.map((p) => p.params.progress).filter((v): v is number => typeof v === 'number');
  for (let i = 1; i < values.length; i++) {
    if (values[i] < values[i - 1]) {
      outcomes.push(fail(`${t.label}: progress went from ${values[i - 1]} back to ${values[i]}`, { expected: 'each progress value larger than the one before', actual: values }));
      break;
    }
    if (values[i] === values[i - 1]) {
      // Equal values do not increase, but nothing went backwards either (requirements §5.11).
      outcomes.push(warn(`${t.label}: progress stayed at ${values[i]}`, { expected: 'each progress value larger than the one before', actual: values }));
      break;
    }
  }
  const past = t.progress.find((p) => typeof p.params.total === 'number' && typeof p.params.progress === 'number' && p.params.progress > p.params.total);
  if (past) outcomes.push(warn(`${t.label}: progress ${String(past.params.progress)} is past its total ${String(past.params.total)}`, { expected: 'progress ≤ total', actual: past.params }));
  return outcomes;
}

/**
 * The probe's tool call that answered slowly enough to be cancelled after it started, longest first: one that reported
 * progress well before its answer, else one far slower than the probe's other calls (all of which were sent at once, so each waited
 * for the others a while); failing those, one still working at the timeout that had reported progress. Without one, why.
 */
function slowTarget({ traces, leftOut }: Probe): { target?: Traced; skipped: string } {
  const calls = traces.filter((t) => t.method === 'tools/call');
  const times = calls.filter((t) => t.reply).map((t) => t.tookMs!).sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  // Progress that came in one burst with the answer shows no work in between to cancel: it counts from its first frame.
  const working = (t: Traced) => t.reply !== undefined && t.progress.length > 0 && t.reply.entry.t - t.progress[0].entry.t >= MIN_SLOW_MS;
  const slow = (t: Traced) => t.reply !== undefined && t.tookMs! >= MIN_SLOW_MS && (working(t) || t.tookMs! >= 3 * median);
  const answered = calls.filter(slow).sort((a, b) => Number(working(b)) - Number(working(a)) || b.tookMs! - a.tookMs!);
  const target = answered[0] ?? calls.find((t) => t.timedOut && t.progress.length > 0);
  const slowest = calls.filter((t) => t.reply).sort((a, b) => b.tookMs! - a.tookMs!)[0];
  const why = slowest ? `the slowest, ${slowest.label}, answered in ${slowest.tookMs} ms without progress, beside ${median} ms for half the calls` : 'no tool was called';
  return { target, skipped: `no safe tool ran long enough to be cancelled after it started (${why})${leftOut.length > 0 ? `; left out: ${leftOut.join(', ')}` : ''}` };
}

const excerpt = (traces: Traced[]) => traces.flatMap((t) => [...(t.reply ? [t.reply.sent, t.reply.entry] : []), ...t.progress.map((p) => p.entry)]).sort((a, b) => a.seq - b.seq);

export const CONVERSATION_CHECKS: CheckDef[] = [
  {
    id: 'progress/requests/notifications',
    revisions: SCHEMA_REVISIONS,
    fresh: true,
    slowWork: true,
    title: 'Progress for a request with a progressToken increases and stops with the response',
    requirement: requirement('prog.increasing', 'MUST', 'basic/utilities/progress#progress-flow', 'The progress value MUST increase with each notification; progress notifications MUST stop after completion'),
    covers: ['prog.stop-after'],
    async run(ctx) {
      const { session, traces, leftOut } = await progressProbe(ctx);
      const unanswered = traces.filter((t) => t.timedOut).map((t) => t.label);
      const left = `${unanswered.length > 0 ? `; unanswered within --timeout (slow work): ${unanswered.join(', ')}` : ''}${leftOut.length > 0 ? `; left out: ${leftOut.join(', ')}` : ''}`;
      if (traces.length === 0) return skip(`no request to send with a progressToken: no list capability and no tool the run may call${left}`);
      const reported = traces.filter((t) => t.progress.length > 0);
      if (reported.length === 0) return skip(`no progress came for the ${traces.length} request(s) sent with a progressToken (a server may send none): ${traces.map((t) => t.label).join(', ')}${left}`);
      const ordered = overStdio(session.transport.kind);
      const outcome = worst(reported.flatMap((t) => judgeProgress(t, ordered)));
      const count = reported.reduce((n, t) => n + t.progress.length, 0);
      const summary = `${count} progress notification(s) for ${reported.map((t) => t.label).join(', ')} (of ${traces.length} request(s) with a token)`;
      return { ...outcome, message: outcome.status === 'pass' ? `${summary}: increasing, none after the response${ordered ? '' : ' seen on the same stream'}${left}` : outcome.message, transcript: excerpt(reported) };
    },
  },
  {
    id: 'cancellation/request/no-response',
    revisions: REVISIONS,
    fresh: true,
    slowWork: true,
    title: 'A cancelled request gets no response, and the server keeps serving',
    requirement: requirement('cancel.no-response', 'SHOULD', 'basic/utilities/cancellation#behavior-requirements', 'Receivers of a cancellation SHOULD stop processing the request and not send a response for it'),
    async run(ctx) {
      // The probe's session may belong to the progress check, closed when it ends: the cancellation gets one of its own,
      // started while the probe runs.
      const own = ctx.profile.capabilities.tools === undefined ? undefined : ctx.ownSession();
      own?.catch(() => {}); // a failed start is reported where it is awaited
      const probe = await probeRun(ctx);
      if (!own) return skip(slowTarget(await probe.done).skipped);
      const session = await own;
      const longest = 2 * ctx.timeoutMs;
      // Its own call of each tool the probe calls, sent beside the probe's: the first found working is cancelled, while
      // its twin in the probe runs on and shows when an answer that ignores the cancellation would come.
      const mine = trace(session, probe.calls, longest, (token) => `mcp-conformance-cancel-${token}`);
      const found = await mine.working;
      const call = found ? { target: found, twin: probe.traces.find((t) => t.label === found.label)! } : await callSlowest(session, await probe.done, ctx.timeoutMs);
      if ('skipped' in call) return skip(call.skipped);
      const { target, twin } = call;
      if (target.tookMs !== undefined) return skip(`${target.label} answered in ${target.tookMs} ms, before it could be cancelled`);
      const id = target.id!;
      const cancelAt = performance.now();
      const cancel = session.notify('notifications/cancelled', { requestId: id, reason: 'mcp-conformance: cancellation probe' });
      // Waits for the answer a server that ignores the cancellation would send: as long as the probe's call took (it may
      // still be working), and the grace.
      await Promise.race([target.settled, twin.settled]);
      const wait = Math.min((twin.tookMs ?? ctx.timeoutMs) + CANCEL_GRACE_MS, longest);
      await Promise.race([target.settled, delay(target.sentAt + wait - performance.now())]);
      const answer = target.reply;
      const answeredAt = target.tookMs === undefined ? undefined : target.sentAt + target.tookMs;
      const alive = await session.request('ping', {}).then(
        () => true,
        () => false,
      );
      const notServing = alive ? [] : [warn('the server did not answer ping after the cancellation: it stopped serving', { expected: 'ping answered', actual: 'no answer' })];
      // Read before the cancellation went out (the answer resolves its request a turn after its frame is read).
      if (answer && answer.entry.seq < cancel.seq) return skip(`${target.label} answered before it could be cancelled`);
      if (answer && answeredAt !== undefined) {
        const after = Math.round(answeredAt - cancelAt);
        // One that crossed the cancellation on the wire was sent before the server read it (CANCEL › race conditions).
        if (after > CANCEL_GRACE_MS) {
          return worst([warn(`${target.label} was answered ${seconds(after)} after it was cancelled`, { expected: `no response after notifications/cancelled (one within ${seconds(CANCEL_GRACE_MS)} may have crossed it)`, actual: answer.message }), ...notServing]);
        }
        return skip(`${target.label}'s response crossed the cancellation (${after} ms after it, tolerated): nothing showed whether the server honours cancellations`);
      }
      return worst([pass(`${target.label} was cancelled ${Math.round(cancelAt - target.sentAt)} ms in and got no response within ${Math.round(wait)} ms; the server kept serving`), ...notServing]);
    },
  },
  {
    id: 'logging/set-level/threshold',
    revisions: REVISIONS,
    fresh: true,
    title: 'After logging/setLevel error, no log message below error',
    requirement: requirement('log.threshold', 'SHOULD', 'server/utilities/logging#setting-log-level', 'After logging/setLevel, the server should send log messages at that level and higher only'),
    requires: { capabilities: ['logging'] },
    async run(ctx) {
      const session = await ctx.ownSession();
      const seen: { level: unknown; entry: TranscriptEntry; phase: number }[] = [];
      let phase = 0;
      let shownBelow = () => {};
      const below = new Promise<void>((resolve) => (shownBelow = resolve));
      const stop = session.onInbound((e) => {
        if (e.message?.method !== 'notifications/message' || !isObject(e.message.params)) return;
        seen.push({ level: e.message.params.level, entry: e.line.entry, phase });
        if (phase === 1 && belowLevel(e.message.params.level, 'error')) shownBelow();
      });
      // The same calls at level debug, then at error: what they log at debug shows what error must hold back.
      let calls: ReturnType<typeof toolCalls>['calls'] = [];
      let leftOut: string[] = [];
      const at = async (level: string, before?: () => Promise<void>): Promise<Reply | string> => {
        const set = await session.request('logging/setLevel', { level }).catch((err: Error) => err.message);
        if (typeof set === 'string' || errorOf(set)) return set;
        phase++;
        await before?.();
        await Promise.all(calls.map((c) => session.request(c.method, c.params).catch(() => undefined)));
        await delay(LINGER_MS);
        return set;
      };
      try {
        // Not answered or refused: logging/set-level/each-level judges setLevel itself.
        const unset = (level: string, r: Reply | string) => skip(`logging/setLevel ${level} ${typeof r === 'string' ? `got no answer (${r})` : 'was refused'}: logging/set-level/each-level judges that`);
        const debugFrom = performance.now();
        // At debug from the start, the calls once the progress probe has sorted its own: the tools it found slow or still
        // working are left out rather than waited for twice more, and what the server logs meanwhile counts at debug.
        const debug = await at('debug', async () => {
          ({ calls, leftOut } = ctx.profile.capabilities.tools === undefined ? { calls: [], leftOut: [] } : toolCalls(ctx, await (await probeRun(ctx)).sorted));
        });
        if (typeof debug === 'string' || errorOf(debug)) return unset('debug', debug);
        // A server that logs of its own accord at random levels (a timer) may yet send one below error: it gets one
        // --timeout at debug in all, the time it already spent there included.
        const left = ctx.timeoutMs - (performance.now() - debugFrom);
        if (seen.some((m) => m.phase === 1) && left > 0) await Promise.race([below, delay(left)]);
        const error = await at('error');
        if (typeof error === 'string' || errorOf(error)) return unset('error', error);
        const shown = seen.filter((m) => m.phase === 1 && belowLevel(m.level, 'error'));
        const after = seen.filter((m) => m.phase === 2 && belowLevel(m.level, 'error'));
        const transcript = [debug.sent, error.sent, ...seen.map((m) => m.entry)].sort((a, b) => a.seq - b.seq);
        const what = `${calls.length} tool call(s)${leftOut.length > 0 ? `; left out: ${leftOut.join(', ')}` : ''}`;
        if (after.length > 0) {
          return warn(`${after.length} log message(s) below error came after logging/setLevel error`, { expected: `levels ${LOG_LEVELS.slice(LOG_LEVELS.indexOf('error')).join(', ')}`, actual: after.map((m) => m.level), transcript });
        }
        if (shown.length === 0) return skip(`no log message below error came at level debug (${what}): nothing showed what level error holds back`);
        return pass(`at debug, ${shown.length} message(s) below error; after setLevel error, none (${what})`, { transcript });
      } finally {
        stop();
        // From here on the shared session logs at error too: logging/messages/threshold watches the rest of the run.
        await ctx.request('logging/setLevel', { level: 'error' }).catch(() => undefined);
      }
    },
  },
  {
    id: 'logging/request-level/threshold',
    revisions: [STATELESS_REVISION],
    fresh: true,
    title: 'A request whose _meta asks for log level error gets no log message below error',
    requirement: requirement(
      'log.07',
      'MAY',
      'server/utilities/logging#per-request-log-level',
      'With io.modelcontextprotocol/logLevel in its _meta, the server MAY send notifications/message for that request at that level and above; no MUST or SHOULD names lower ones, so they warn',
      STATELESS_REVISION,
    ),
    covers: ['07.logging'],
    requires: { capabilities: ['logging'] },
    async run(ctx) {
      const session = await ctx.ownSession();
      // Once the progress probe has sorted its calls: the tools it found slow or still working are left out.
      const { calls, leftOut } = ctx.profile.capabilities.tools === undefined ? { calls: [], leftOut: [] } : toolCalls(ctx, await (await probeRun(ctx)).sorted);
      const what = `${calls.length} tool call(s)${leftOut.length > 0 ? `; left out: ${leftOut.join(', ')}` : ''}`;
      if (calls.length === 0) return skip(`no tool the run may call, so no request that could log (${what})`);
      const seen: { level: unknown; entry: TranscriptEntry; asked: string }[] = [];
      let asked = '';
      const stop = session.onInbound((e) => {
        if (e.message?.method === 'notifications/message' && isObject(e.message.params)) seen.push({ level: e.message.params.level, entry: e.line.entry, asked });
      });
      // The same calls asking for debug, then for error: what they log at debug shows what error must hold back.
      const at = async (level: string) => {
        asked = level;
        const replies = await Promise.all(calls.map((c) => session.request(c.method, { ...c.params, _meta: { [LOG_LEVEL]: level } }).catch(() => undefined)));
        return replies.filter((r): r is Reply => r !== undefined);
      };
      try {
        const debug = await at('debug');
        const error = await at('error');
        const shown = seen.filter((m) => m.asked === 'debug' && belowLevel(m.level, 'error'));
        const below = seen.filter((m) => m.asked === 'error' && belowLevel(m.level, 'error'));
        const transcript = [...debug, ...error].map((r) => r.sent).concat(seen.map((m) => m.entry)).sort((a, b) => a.seq - b.seq);
        if (below.length > 0) {
          return warn(`${below.length} log message(s) below error came for requests whose _meta asked for level error`, { expected: `levels ${LOG_LEVELS.slice(LOG_LEVELS.indexOf('error')).join(', ')}`, actual: below.map((m) => m.level), transcript });
        }
        if (shown.length === 0) return skip(`no log message below error came for the requests that asked for debug (${what}): nothing showed what level error holds back`);
        return pass(`asking for debug, ${shown.length} message(s) below error; asking for error, none (${what})`, { transcript });
      } finally {
        stop();
      }
    },
  },
  {
    id: 'cancellation/http/stream-close',
    revisions: [STATELESS_REVISION],
    transport: 'http',
    fresh: true,
    title: 'Closing the response stream of a working request cancels it, and the server keeps serving',
    requirement: requirement(
      '07.cancel',
      'MUST',
      'basic/patterns/cancellation',
      'Over Streamable HTTP, closing the response stream of a request is its cancellation; the server sends nothing more for it and goes on serving (only the going on shows: a server that stops serving warns)',
      STATELESS_REVISION,
    ),
    // The other half of 07.cancel (a server's own notifications/cancelled only ends its subscription) is not judged:
    // the reference server never sends one, so no such rule could be shown to pass.
    covers: ['cancel.http-disconnect'],
    async run(ctx) {
      const own = ctx.ownSession();
      own.catch(() => {}); // a failed start is reported where it is awaited
      // Once the probe is done: the outage a server may have after a closed stream must not meet the other checks' work.
      const { target, skipped } = slowTarget(await progressProbe(ctx));
      if (!target) return skip(skipped);
      const session = await own;
      const http = httpOf(session);
      const closeAt = Math.round((target.tookMs ?? ctx.timeoutMs) / 4);
      const id = `mcp-conformance-stream-close-${nextToken()}`;
      const body = JSON.stringify({ jsonrpc: '2.0', id, method: target.method, params: { ...target.params, _meta: { ...session.requestMeta, progressToken: nextToken() } } });
      // The probe stops reading, and closes the stream, a quarter of the call's probe time in.
      const o = await http.probe('POST', `${target.label}, its stream closed ${closeAt} ms in`, {}, body, closeAt);
      if (o.status === undefined) return skip(`${target.label} got no response head within ${closeAt} ms, so there was no stream to close (${o.error ?? 'no answer'})`);
      if (!o.cut) return skip(`${target.label} was answered (HTTP ${o.status}) within ${closeAt} ms, before its stream could be closed`);
      const probe = ctx.profile.capabilities.tools !== undefined ? 'tools/list' : 'server/discover';
      const alive = await session.request(probe, {}).then(
        (r) => !errorOf(r),
        () => false,
      );
      if (!alive) return warn(`after the stream of ${target.label} was closed ${closeAt} ms in, ${probe} was not answered: the server stopped serving`, { expected: `${probe} answered`, actual: 'no answer or an error' });
      return pass(`the stream of ${target.label} was closed ${closeAt} ms in, before its answer; the server went on serving (${probe} answered)`);
    },
  },
];
