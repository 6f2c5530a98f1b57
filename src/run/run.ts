import { CHECKS } from '../checks/index.js';
import { type CheckContext, type CheckDef, type Outcome, skip, wrongTransport } from '../checks/check.js';
import { loadSuite, type Suite } from '../checks/suite.js';
import { FrameMonitor } from '../checks/frame-monitor.js';
import { discover, initialize, schemaRevision } from '../discovery/discover.js';
import { DEFAULT_RUNS, randomSeed } from '../properties/runner.js';
import { DEFAULT_TOOL_CALL_MODE, type ToolCallMode } from '../properties/tool-policy.js';
import type { ServerProfile } from '../discovery/profile.js';
import type { CheckResult, Report, TranscriptEntry } from '../schema/generated/report.js';
import { summarize } from '../report/summary.js';
import { RequestTimeout, Session, SessionClosed } from '../session/session.js';
import { Transcript } from '../session/transcript.js';
import type { LaunchPlan } from '../target/launch-plan.js';
import { connect } from '../transport/connect.js';
import { redact, redactUrl, secretsOf } from '../transport/secrets.js';
import type { TransportKind } from '../transport/transport.js';
import { TOOL } from '../version.js';

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
  /** The protocol version to ask for at initialize (default: the newest the project knows). */
  protocolVersion?: string;
  /** Seed of the generated checks (default: a random one); the report records it, so a run can be replayed. */
  seed?: number;
  /** Values each property generates (default DEFAULT_RUNS). */
  runs?: number;
  /** Which tools generated calls may reach (default safe: readOnlyHint tools and `allowTools`). */
  toolCalls?: ToolCallMode;
  /** Tools generated calls may reach in safe mode too. */
  allowTools?: string[];
}

class BudgetSpent extends Error {}

/** Starts the server, discovers it, runs every check, shuts everything down, and returns the report. */
export async function runConformance(options: RunOptions): Promise<Report> {
  const startedAt = new Date();
  const t0 = performance.now();
  const deadline = t0 + options.budgetMs;
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
    replay: (id) => `mcp-conformance --seed ${seed} --only ${id} ${options.plan.description}`,
  };

  const connection = connect(options.plan, { timeoutMs: options.timeoutMs });
  const open = async () => {
    const transcript = new Transcript();
    const session = new Session(await connection.open(transcript), transcript, options.timeoutMs);
    sessions.push(session);
    monitor.watch(session);
    return session;
  };

  // A launch error propagates: it is the user's to fix (exit 2).
  const shared = await open().catch(async (err: Error) => {
    await connection.close();
    throw err;
  });
  let profile: ServerProfile | undefined;
  const results: CheckResult[] = [];
  let interrupted = false;
  try {
    try {
      profile = await discover(shared, options.protocolVersion);
      monitor.context.capabilities = profile.capabilities;
    } catch (err) {
      results.push(initializeFailure(err as Error, shared));
    }
    if (profile) {
      const { checks } = suite;
      const runOne = (def: CheckDef) => runCheck(forTransport(def, shared.transport.kind), { profile: profile!, shared, open, memo, timeoutMs: options.timeoutMs, deadline, generation });
      const first = await Promise.all(checks.filter((c) => !c.last).map(runOne));
      const last: CheckResult[] = [];
      for (const def of checks.filter((c) => c.last)) last.push(await runOne(def));
      const byId = new Map([...first, ...last].map((r) => [r.id, r]));
      results.push(...checks.map((c) => byId.get(c.id)!));
      interrupted = results.some((r) => r.status === 'error' && r.message.startsWith('run budget'));
    }
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
    await connection.close();
  }
  results.push(...monitor.results(shared.transport.kind));
  const checks = options.strict ? results.map((r) => (r.status === 'warn' ? { ...r, status: 'fail' as const } : r)) : results;
  // Header values (--header) are secrets: wherever the server echoed one, the report says ***.
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
  }, secretsOf(options.plan.headers));
}

function targetOf(plan: LaunchPlan): Report['target'] {
  return {
    description: redactUrl(plan.description),
    ...(plan.command && { command: plan.command, args: plan.args, cwd: plan.cwd }),
    ...(plan.url && { url: redactUrl(plan.url) }),
  };
}

/** The check itself, or, when it is made for another transport than the run's, a stand-in that skips with the reason. */
function forTransport(def: CheckDef, kind: TransportKind): CheckDef {
  const elsewhere = wrongTransport(def.transport, kind);
  return elsewhere ? { ...def, run: async () => skip(elsewhere) } : def;
}

function serverOf(p: ServerProfile): NonNullable<Report['server']> {
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    name: str(p.serverInfo.name),
    version: str(p.serverInfo.version),
    title: str(p.serverInfo.title),
    protocolVersion: p.protocolVersion,
    capabilities: p.capabilities,
    instructions: p.instructions,
    counts: { tools: p.tools.length, resources: p.resources.length, resourceTemplates: p.resourceTemplates.length, prompts: p.prompts.length },
  };
}

function initializeFailure(err: Error, session: Session): CheckResult {
  const def = CHECKS.find((c) => c.id === 'lifecycle/initialize/result')!;
  const stderr = session.transport.stderrTail();
  return {
    id: def.id,
    title: def.title,
    area: 'lifecycle',
    status: 'fail',
    level: def.requirement.level,
    requirement: def.requirement,
    message: `initialize did not succeed: ${err.message}${stderr ? `\nserver stderr:\n${stderr}` : ''}; no other check could run`,
    expected: 'an InitializeResult',
    durationMs: 0,
    transcript: session.transcript.slice(0),
  };
}

/** What the generated checks (properties) take from the run's options. */
type Generation = Pick<CheckContext, 'seed' | 'runs' | 'toolCalls' | 'replay'>;

interface RunState {
  profile: ServerProfile;
  shared: Session;
  open: () => Promise<Session>;
  memo: Map<string, Promise<unknown>>;
  timeoutMs: number;
  deadline: number;
  generation: Generation;
}

async function runCheck(def: CheckDef, { profile, shared, open, memo, timeoutMs, deadline, generation }: RunState): Promise<CheckResult> {
  const t = performance.now();
  const excerpt: TranscriptEntry[] = [];
  const fresh: Session[] = [];
  const ctx: CheckContext = {
    ...generation,
    profile,
    timeoutMs,
    async request(method, params, opts) {
      const reply = await shared.request(method, params, opts);
      excerpt.push(reply.sent, reply.entry);
      return reply;
    },
    async fresh() {
      const s = await open();
      fresh.push(s);
      return s;
    },
    async initialize(session, protocolVersion) {
      const reply = await initialize(session, protocolVersion);
      const v = (reply.message.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
      session.revision = schemaRevision(typeof v === 'string' ? v : protocolVersion);
      return reply;
    },
    memo: (key, fn) => {
      if (!memo.has(key)) memo.set(key, fn());
      return memo.get(key) as never;
    },
    async closeShared() {
      const exit = await shared.close();
      // The process's own story (spawn, stderr, signals, exit) is this check's transcript.
      const story = shared.transcript.entries.filter((e) => e.dir === 'event' || e.dir === 'stderr');
      excerpt.push(...(story.length > 20 ? [story[0], ...story.slice(-19)] : story));
      return exit;
    },
    stderrTail: () => shared.transport.stderrTail(),
  };
  let outcome: Outcome | { status: 'error'; message: string };
  try {
    const left = deadline - performance.now();
    if (left <= 0) throw new BudgetSpent();
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new BudgetSpent()), left)));
    try {
      outcome = await Promise.race([def.run(ctx), budget]);
    } finally {
      clearTimeout(timer);
    }
  } catch (err) {
    outcome = judgeThrown(err as Error);
  } finally {
    await Promise.all(fresh.map((s) => s.close()));
  }
  const entries = ('transcript' in outcome && outcome.transcript) || (fresh.length > 0 ? fresh.flatMap((s) => s.transcript.entries) : excerpt);
  return {
    id: def.id,
    title: def.title,
    area: def.id.split('/')[0],
    status: outcome.status,
    level: def.requirement.level,
    requirement: def.requirement,
    message: outcome.message,
    ...('expected' in outcome && outcome.expected !== undefined && { expected: outcome.expected }),
    ...('actual' in outcome && outcome.actual !== undefined && { actual: outcome.actual }),
    durationMs: Math.round(performance.now() - t),
    ...(entries.length > 0 && { transcript: entries }),
  };
}

/** A server that does not answer or dies has failed the check; anything else thrown is the harness's fault. */
function judgeThrown(err: Error): Outcome | { status: 'error'; message: string } {
  if (err instanceof BudgetSpent) return { status: 'error', message: 'run budget spent before this check finished' };
  if (err instanceof RequestTimeout || err instanceof SessionClosed) return { status: 'fail', message: err.message };
  return { status: 'error', message: `harness error: ${err.stack ?? err.message}` };
}
