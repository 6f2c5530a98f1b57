import { CHECKS } from '../checks/index.js';
import { timeoutVerdict } from '../checks/timeouts.js';
import { type CheckContext, type CheckDef, type Outcome, skip, wrongRevision, wrongTransport } from '../checks/check.js';
import { loadSuite, type Suite } from '../checks/suite.js';
import { FrameMonitor } from '../checks/frame-monitor.js';
import { discover, initialize, schemaRevision, UnsupportedEra } from '../discovery/discover.js';
import { MAX_RESTARTS, processStory, SharedServer } from './shared-server.js';
import { noteLateAnswers } from './late-answers.js';
import { noteCause } from './causes.js';
import { lockedOut, lockedProfile } from './locked.js';
import type { LocalIssuer } from '../auth/issuer.js';
import { SCRATCH_SESSIONS, ScratchSessions } from './scratch.js';
import { REVISIONS, STATELESS_REVISION } from '../schema/validators.js';
import { DEFAULT_RUNS, randomSeed } from '../properties/runner.js';
import { DEFAULT_TOOL_CALL_MODE, type ToolCallMode } from '../properties/tool-policy.js';
import type { ServerProfile } from '../discovery/profile.js';
import type { CheckResult, Report, TranscriptEntry } from '../schema/generated/report.js';
import { summarize } from '../report/summary.js';
import { type Exchange, type InboundEvent, type Reply, RequestTimeout, Session, SessionClosed } from '../session/session.js';
import { Transcript } from '../transcript.js';
import type { LaunchPlan } from '../target/launch-plan.js';
import { type Connection, connect } from '../transport/connect.js';
import { redact, redactUrl, secretsOf } from '../transport/secrets.js';
import { quoteArg } from '../transport/server-process.js';
import type { TransportKind } from '../transport/transport.js';
import { TOOL } from '../version.js';
import { bounded } from '../json.js';
import { type OnProgress, progressTracker } from './progress.js';

export interface RunOptions {
  plan: LaunchPlan;
  /** Per-request timeout. */
  timeoutMs: number;
  /** Whole-run budget: checks still running when it is spent end as errors and the run is marked interrupted. */
  budgetMs: number;
  /** SHOULD violations fail. */
  strict: boolean;
  /** The checks and frame rules to run (default: the whole built-in suite). */
  suite?: Suite;
  /** The revision to test: 2026-07-28 runs on the stateless wire, any other is asked for at initialize (default: 2025-11-25). */
  protocolVersion?: string;
  /** Seed of the generated checks (default: a random one); the report records it, so a run can be replayed. */
  seed?: number;
  /** Values each property generates (default DEFAULT_RUNS). */
  runs?: number;
  /** Which tools generated calls may reach (default safe: readOnlyHint tools and `allowTools`). */
  toolCalls?: ToolCallMode;
  /** Tools generated calls may reach in safe mode too. */
  allowTools?: string[];
  /** Aborting it (Ctrl-C) ends the checks still running as errors; the partial report comes back marked interrupted. */
  signal?: AbortSignal;
  /** A session already initialized at `protocolVersion` (the auto probe's), and its connection: the run goes on in them. */
  handover?: Handover;
  /** The --auth-server, when the run has one: the authorization checks ask it for tokens. */
  issuer?: LocalIssuer;
  /** An era the auto probe left out, because the server said it does not speak it: that era's checks skip with the reason. */
  eraLeftOut?: { revision: string; reason: string };
  /** Told as each check starts and ends (a live progress line). */
  onProgress?: OnProgress;
}

/** A session and its connection passed on to a run, which then owns them. */
export interface Handover {
  connection: Connection;
  session: Session;
  /** The answer to the initialize the session sent. */
  initialized: Reply;
  /** Stops keeping what the session receives, and returns what it kept: the run's frame rules judge that too. */
  earlier(): InboundEvent[];
}

class BudgetSpent extends Error {}
class Interrupted extends Error {}

/** Fresh stdio sessions started ahead, at most, while discovery runs (a default run takes seven: version probes, uninitialized cases, scratch sessions). */
const FRESH_POOL = 4;

/** Starts the server, discovers it, runs every check, shuts everything down, and returns the report. */
export async function runConformance(options: RunOptions): Promise<Report> {
  const startedAt = new Date();
  const t0 = performance.now();
  const deadline = t0 + options.budgetMs;
  const interruption = new Promise<never>((_, reject) => {
    const abort = () => reject(new Interrupted());
    if (options.signal?.aborted) abort();
    else options.signal?.addEventListener('abort', abort, { once: true });
  });
  interruption.catch(() => {}); // raced by discovery and every check; nobody may be listening when it fires
  const suite = options.suite ?? (await loadSuite());
  const monitor = new FrameMonitor(suite.frameRules);
  const sessions: Session[] = [];
  // Probes shared by several checks (version negotiation) run once per run.
  const memo = new Map<string, Promise<unknown>>();
  const seed = options.seed ?? randomSeed();
  const generation: Generation = {
    seed,
    runs: options.runs ?? DEFAULT_RUNS,
    toolCalls: { mode: options.toolCalls ?? DEFAULT_TOOL_CALL_MODE, allow: options.allowTools ?? [] },
    slowTools: new Map(),
    ...(options.issuer && { issuer: options.issuer }),
    // Everything that decides the generated values and which tools they reach: seed, runs, revision, tool policy, target.
    replay: (id) => [
      'mcp-conformance', '--seed', seed,
      ...(options.runs !== undefined && options.runs !== DEFAULT_RUNS ? ['--runs', options.runs] : []),
      ...(options.protocolVersion ? ['--revision', options.protocolVersion] : []),
      ...(options.toolCalls && options.toolCalls !== DEFAULT_TOOL_CALL_MODE ? ['--tool-calls', options.toolCalls] : []),
      ...(options.allowTools ?? []).flatMap((tool) => ['--allow-tool', quoteArg(tool)]),
      '--only', id, options.plan.cliTarget ?? quoteArg(options.plan.description),
    ].join(' '),
  };

  const { handover } = options;
  const connection = handover?.connection ?? connect(options.plan, { timeoutMs: options.timeoutMs, probeVersion: REVISIONS[0] });
  const open = async () => {
    const transcript = new Transcript();
    const session = new Session(await connection.open(transcript), transcript, options.timeoutMs);
    sessions.push(session);
    monitor.watch(session);
    return session;
  };
  const adopt = ({ session, earlier }: Handover) => {
    sessions.push(session);
    monitor.watch(session, earlier());
    return session;
  };

  // A launch error propagates: it is the user's to fix (exit 2).
  const shared = handover
    ? adopt(handover)
    : await open().catch(async (err: Error) => {
        await connection.close();
        throw err;
      });
  // Over stdio, a server lost mid-run is restarted for the checks after (the handshake again, not discovery).
  const sharedServer = new SharedServer(shared, open, options.protocolVersion ?? REVISIONS[0], shared.transport.kind === 'stdio' ? MAX_RESTARTS : 0);
  // Fresh sessions (version probes, uninitialized cases, scratch sessions) over stdio cost a process start each: a few
  // are started now, while discovery runs, and handed out first; no more than the run will take, so a narrow run
  // starts none it does not use.
  const pool: Promise<Session>[] = [];
  if (shared.transport.kind === 'stdio') {
    const revision = options.protocolVersion ?? REVISIONS[0];
    const applies = suite.checks.filter((c) => elsewhere(c, 'stdio', revision) === undefined);
    const takers = applies.filter((c) => c.fresh).length + Math.min(SCRATCH_SESSIONS, applies.filter((c) => c.scratch).length);
    for (let i = 0; i < Math.min(FRESH_POOL, takers); i++) pool.push(open());
    for (const p of pool) p.catch(() => {}); // a failed start is reported to the check that takes it
  }
  const takeFresh = () => pool.shift() ?? open();
  let profile: ServerProfile | undefined;
  const results: CheckResult[] = [];
  const lostWaiting = new Set<string>();
  const silent = new Map<string, Exchange[]>();
  let interrupted = false;
  /** Set when the server wants a token the run lacks: only the authorization area runs. */
  let locked: string | undefined;
  try {
    try {
      profile = await Promise.race([discover(shared, options.protocolVersion, handover?.initialized), interruption]);
      monitor.context.capabilities = profile.capabilities;
      monitor.context.transport = shared.transport.kind;
    } catch (err) {
      locked = err instanceof Interrupted ? undefined : await lockedOut(shared);
      if (err instanceof Interrupted) interrupted = true;
      else if (locked) profile = lockedProfile(options.protocolVersion ?? REVISIONS[0]);
      else results.push(handshakeFailure(err as Error, shared, options.protocolVersion));
      // A revision the server says it does not speak: one failure names the cause, and each check skips with it.
      if (err instanceof UnsupportedEra) results.push(...suite.checks.filter((c) => c.id !== results[0].id).map((c) => notRun(c, `not run: the server does not support ${options.protocolVersion} (${err.message})`)));
    }
    if (profile) {
      const { checks } = suite;
      const state: RunState = { profile, shared: sharedServer, open: takeFresh, memo, timeoutMs: options.timeoutMs, deadline, interruption, generation, lostWaiting, silent };
      // Over stdio, where a session is a server process, scratch checks take turns on a few sessions (see ScratchSessions).
      const scratchers = checks.filter((c) => c.scratch && elsewhere(c, shared.transport.kind, profile!.revision) === undefined).length;
      if (shared.transport.kind === 'stdio' && scratchers > 0) state.scratch = new ScratchSessions(async () => ready(await freshOn(state), profile!), Math.min(SCRATCH_SESSIONS, scratchers));
      const progress = progressTracker(checks.map((c) => c.id), options.onProgress);
      const runOne = (def: CheckDef) =>
        progress.track(def.id, locked && !def.id.startsWith('auth/') ? Promise.resolve(notRun(def, locked)) : runCheck(applicable(def, shared.transport.kind, profile!.revision, options.eraLeftOut), state));
      // All at once, those that open sessions of their own first: their servers start while the others start. Each
      // check's synchronous start (compiling schemas, generating values) can take tens of milliseconds: between two,
      // the event loop turns, so the exchanges already under way (scratch sessions' turns) go on meanwhile. Scratch
      // turns go in this order too: case files (a few exchanges) before generated checks (a hundred values), so a
      // case that must run again alone starts early.
      const concurrent = checks.filter((c) => !c.last);
      const order = (c: CheckDef) => (c.fresh ? 0 : c.scratch ? (c.source !== undefined ? 1 : 2) : 3);
      const started: Promise<CheckResult>[] = [];
      for (const def of [...concurrent].sort((a, b) => order(a) - order(b))) {
        started.push(runOne(def));
        await new Promise(setImmediate);
      }
      const first = await Promise.all(started);
      const last: CheckResult[] = [];
      for (const def of checks.filter((c) => c.last)) last.push(await runOne(def));
      const byId = new Map([...first, ...last].map((r) => [r.id, r]));
      results.push(...checks.map((c) => byId.get(c.id)!));
      interrupted = options.signal?.aborted === true || results.some((r) => r.status === 'error' && r.message.startsWith('run budget'));
    }
  } finally {
    await Promise.allSettled(pool.splice(0)); // untaken ones are in `sessions` once started
    await sharedServer.settle();
    await Promise.all(sessions.map((s) => s.close()));
    await connection.close();
  }
  // After every session closed: an answer may come while the server shuts down.
  noteLateAnswers(results, sessions, silent);
  noteCause(results, lostWaiting);
  // Without a token nothing was exchanged at the MCP level: the frames were HTTP refusals.
  results.push(...monitor.results(shared.transport.kind).map((r) => (locked ? { ...r, status: 'skip' as const, message: locked, transcript: undefined } : r)));
  const checks = options.strict ? results.map((r) => (r.status === 'warn' ? { ...r, status: 'fail' as const } : r)) : results;
  // Header values, secret-named --env values and named secrets (--secret): wherever the server echoed one, the report says ***.
  return redact({
    tool: TOOL,
    target: targetOf(options.plan),
    ...(profile && { server: serverOf(profile) }),
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - t0),
    strict: options.strict,
    seed,
    ...(interrupted && { interrupted }),
    summary: summarize(checks),
    checks,
  }, secretsOf(options.plan));
}

function targetOf(plan: LaunchPlan): Report['target'] {
  return {
    description: redactUrl(plan.description),
    ...(plan.command && { command: plan.command, args: plan.args, cwd: plan.cwd }),
    ...(plan.url && { url: redactUrl(plan.url) }),
  };
}

/**
 * The check itself, or, when it is made for another transport or revision than the run's, a stand-in that skips with
 * the reason (taking no scratch turn): for an era the server said it does not speak, that reason.
 */
function applicable(def: CheckDef, kind: TransportKind, revision: string, leftOut?: RunOptions['eraLeftOut']): CheckDef {
  const other = elsewhere(def, kind, revision);
  const why = other && leftOut && def.revisions?.includes(leftOut.revision) ? leftOut.reason : other;
  return why ? { ...def, scratch: false, run: async () => skip(why) } : def;
}

/** Why a check does not apply to a run of this transport and revision; undefined when it does. */
const elsewhere = (def: CheckDef, kind: TransportKind, revision: string) => wrongTransport(def.transport, kind, def.offTransport) ?? wrongRevision(def.revisions, revision);

function serverOf(p: ServerProfile): NonNullable<Report['server']> {
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    name: str(p.serverInfo.name),
    version: str(p.serverInfo.version),
    title: str(p.serverInfo.title),
    protocolVersion: p.protocolVersion,
    capabilities: p.capabilities,
    // The report keeps evidence, not a server's multi-megabyte payloads.
    instructions: p.instructions === undefined ? undefined : (bounded(p.instructions) as string),
    counts: { tools: p.tools.length, resources: p.resources.length, resourceTemplates: p.resourceTemplates.length, prompts: p.prompts.length },
  };
}

function handshakeFailure(err: Error, session: Session, protocolVersion: string | undefined): CheckResult {
  const stateless = protocolVersion === STATELESS_REVISION;
  const def = CHECKS.find((c) => c.id === (stateless ? 'stateless/discover/result' : 'lifecycle/initialize/result'))!;
  const stderr = session.transport.stderrTail();
  return {
    id: def.id,
    title: def.title,
    area: def.id.split('/')[0],
    status: 'fail',
    level: def.requirement.level,
    requirement: def.requirement,
    message:
      err instanceof UnsupportedEra
        ? `the server does not support ${protocolVersion}: ${err.message}; every check of ${protocolVersion} is skipped (--revision auto tests the revisions it lists)`
        : `${stateless ? 'server/discover' : 'initialize'} did not succeed: ${err.message}${stderr ? `\nserver stderr:\n${stderr}` : ''}; no other check could run`,
    expected: stateless ? 'a DiscoverResult' : 'an InitializeResult',
    durationMs: 0,
    transcript: session.transcript.slice(0),
  };
}

/** A check that did not run, skipped with the reason. */
function notRun(def: CheckDef, message: string): CheckResult {
  return { id: def.id, title: def.title, area: def.id.split('/')[0], status: 'skip', level: def.requirement.level, requirement: def.requirement, message, durationMs: 0 };
}

/** What the generated checks (properties) and the authorization checks take from the run's options. */
type Generation = Pick<CheckContext, 'seed' | 'runs' | 'toolCalls' | 'slowTools' | 'replay' | 'issuer'>;

interface RunState {
  profile: ServerProfile;
  shared: SharedServer;
  open: () => Promise<Session>;
  /** Stdio runs only. */
  scratch?: ScratchSessions;
  memo: Map<string, Promise<unknown>>;
  timeoutMs: number;
  deadline: number;
  interruption: Promise<never>;
  generation: Generation;
  /** Checks whose request on the shared session was cut off by the loss of its server. */
  lostWaiting: Set<string>;
  /** Checks that failed for silence only, and the requests left unanswered (see Outcome.silent). */
  silent: Map<string, Exchange[]>;
}

/** A new session on the shared one's wire, not yet initialized: the stateless wire needs no handshake, only the protocol fields. */
async function freshOn({ open, shared }: RunState): Promise<Session> {
  const s = await open();
  if (shared.session.requestMeta) {
    s.requestMeta = shared.session.requestMeta;
    s.revision = shared.session.revision;
    s.paramHeaders = shared.session.paramHeaders;
  }
  return s;
}

/** Initializes a session, on the stateless wire as it is, with the version discovery negotiated: ready like the shared session. */
async function ready(session: Session, profile: ServerProfile): Promise<Session> {
  if (profile.revision === STATELESS_REVISION) return session;
  await initializeAs(session, profile.protocolVersion);
  session.notify('notifications/initialized');
  return session;
}

/** initialize, and the schema revision of the version the server answered with. */
async function initializeAs(session: Session, protocolVersion: string) {
  const reply = await initialize(session, protocolVersion);
  const v = (reply.message.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
  session.revision = schemaRevision(typeof v === 'string' ? v : protocolVersion);
  return reply;
}

/**
 * A scratch check takes its turn on a scratch session; when it does not pass there, it runs again on a server of its
 * own, whose verdict stands (unless it was the first check on that session: then it had one). When the two verdicts
 * differ, the message says so: the server behaved worse after other checks' input.
 */
async function runCheck(def: CheckDef, state: RunState): Promise<CheckResult> {
  if (!def.scratch || !state.scratch) return attempt(def, state);
  const turn = await state.scratch.turn((session) => attempt(def, state, session), (r) => r.status !== 'fail' && r.status !== 'error');
  const first = turn?.result;
  if (turn && (turn.untouched || first?.status === 'pass' || first?.status === 'skip')) return turn.result;
  const alone = await attempt(def, state);
  if (!first || first.status === alone.status) return alone;
  const said = first.message.split('\n')[0];
  return { ...alone, message: `${alone.message}\n(this is its run on a server of its own; on a session where other checks had sent their input first, it gave ${first.status}: ${said})` };
}

/** Runs a check once; `scratch` gives it the session its ownSession() returns. */
async function attempt(def: CheckDef, state: RunState, scratch?: () => Promise<Session>): Promise<CheckResult> {
  const { profile, shared, memo, timeoutMs, deadline, interruption, generation } = state;
  const t = performance.now();
  const excerpt: TranscriptEntry[] = [];
  const fresh: Session[] = [];
  let scratched: { session: Session; from: number } | undefined;
  const ctx: CheckContext = {
    ...generation,
    profile,
    timeoutMs,
    async request(method, params, opts) {
      const reply = await shared.request(method, params, opts).catch((err: unknown) => {
        // The request stays in the excerpt: an answer that comes after the timeout is noted on this check.
        if (err instanceof RequestTimeout && err.exchange) excerpt.push(err.exchange.sent);
        if (err instanceof SessionClosed) state.lostWaiting.add(def.id);
        throw err;
      });
      excerpt.push(reply.sent, reply.entry);
      return reply;
    },
    async fresh() {
      const s = await freshOn(state);
      fresh.push(s);
      return s;
    },
    async ownSession() {
      if (!scratch) return ready(await ctx.fresh(), profile);
      const session = await scratch();
      scratched = { session, from: session.transcript.length };
      return session;
    },
    initialize: initializeAs,
    memo: (key, fn) => {
      if (!memo.has(key)) memo.set(key, fn());
      return memo.get(key) as never;
    },
    async closeShared() {
      const { session, exit } = await shared.close();
      // The process's own story (spawn, stderr, signals, exit) is this check's transcript.
      excerpt.push(...processStory(session));
      return exit;
    },
    stderrTail: () => shared.session.transport.stderrTail(),
    serverLosses: () => shared.losses,
  };
  let outcome: Outcome | { status: 'error'; message: string } | undefined;
  try {
    const left = deadline - performance.now();
    if (left <= 0) throw new BudgetSpent();
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new BudgetSpent()), left)));
    try {
      outcome = await Promise.race([def.run(ctx), budget, interruption]);
    } finally {
      clearTimeout(timer);
    }
  } catch (err) {
    outcome = judgeThrown(err as Error, shared.session.transport.stderrTail(), profile);
  } finally {
    // A check that failed for silence on a session of its own (fresh or scratch): one more --timeout, at most, for the
    // late answers, so that a late server is told from a silent one before its session closes or serves the next check.
    const silent = outcome?.status === 'fail' && 'silent' in outcome ? outcome.silent : undefined;
    if (silent) await Promise.all([...fresh, ...(scratched ? [scratched.session] : [])].map((s) => s.lateGrace(silent, timeoutMs)));
    await Promise.all(fresh.map((s) => s.close()));
  }
  // The last attempt's: a check that runs again alone keeps that verdict.
  if (outcome.status === 'fail' && 'silent' in outcome && outcome.silent) state.silent.set(def.id, outcome.silent);
  else state.silent.delete(def.id);
  const own = [...fresh.flatMap((s) => s.transcript.entries), ...(scratched ? scratched.session.transcript.slice(scratched.from) : [])];
  const entries = ('transcript' in outcome && outcome.transcript) || (own.length > 0 ? own : excerpt);
  return {
    id: def.id,
    title: def.title,
    area: def.id.split('/')[0],
    status: outcome.status,
    level: def.requirement.level,
    requirement: def.requirement,
    message: outcome.message,
    // Results live to the end of the run: they keep the evidence, not a server's multi-megabyte payloads.
    ...('expected' in outcome && outcome.expected !== undefined && { expected: bounded(outcome.expected) }),
    ...('actual' in outcome && outcome.actual !== undefined && { actual: bounded(outcome.actual) }),
    durationMs: Math.round(performance.now() - t),
    ...(entries.length > 0 && { transcript: entries }),
  };
}

/** A server that dies has failed the check, one that does not answer as what was asked says; anything else thrown is the harness's fault. */
function judgeThrown(err: Error, stderr: string, profile: ServerProfile): Outcome | { status: 'error'; message: string } {
  if (err instanceof BudgetSpent) return { status: 'error', message: 'run budget spent before this check finished' };
  if (err instanceof Interrupted) return { status: 'error', message: 'run interrupted before this check finished' };
  // What the server last wrote to stderr often says why it hung or died: a lost session's own tail, since the
  // shared one may have been restarted.
  if (err instanceof SessionClosed && err.stderr !== undefined) stderr = err.stderr;
  const tail = stderr ? `\nserver stderr:\n${stderr}` : '';
  if (err instanceof RequestTimeout) {
    const verdict = timeoutVerdict(profile, err);
    return { ...verdict, message: verdict.message + tail };
  }
  if (err instanceof SessionClosed) return { status: 'fail', message: err.message + tail };
  return { status: 'error', message: `harness error: ${err.stack ?? err.message}` };
}
