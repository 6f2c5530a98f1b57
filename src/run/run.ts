import { FrameMonitor } from './frame-monitor.js';
import type { Suite } from '../suite/suite.js';
import { DEFAULTS } from '../config/defaults.js';
import { discover, UnsupportedEra, unspokenBy } from '../discovery/discover.js';
import type { ServerProfile } from '../discovery/profile.js';
import { randomSeed } from '../checks/kit/property-runner.js';
import type { ToolCallPolicy } from '../generate/tool-policy.js';
import type { CheckResult, Report } from '../schema/generated/report.js';
import { REVISIONS, STATELESS_REVISION } from '../schema/revisions.js';
import { type Exchange, type Reply, Session } from '../session/session.js';
import { Transcript } from '../transcript.js';
import type { LaunchPlan } from '../target/launch-plan.js';
import { type Connection, connect } from '../transport/connect.js';
import { countProcesses, quoteArg } from '../transport/server-process.js';
import { timeRun } from '../timing.js';
import { overStdio } from '../transport/transport.js';
import { assembleReport, handshakeFailure, handshakeStopped, handshakeUnspoken } from './assemble.js';
import { BudgetSpent, type Generation, Interrupted, type RunState } from './attempt.js';
import { notRun } from './result.js';
import { elsewhere, type EraLeftOut, runChecks } from './schedule.js';
import { scratchLanes } from './scratch.js';
import { gateFacts, gateFor } from '../transport/start-gate.js';
import { FRESH_POOL, type Warm } from './warm.js';
import { handOnPairs } from './hand-on.js';
import { MAX_RESTARTS, SharedServer } from './shared-server.js';
import { lockedOut, lockedProfile } from './locked.js';
import {
  AFTER_TURN,
  RESTART,
  SHARED,
  STARTED_AHEAD,
  serversOf,
  sharesProcessOf,
  started,
  taken,
} from './process-log.js';
import type { LocalIssuer } from '../auth/issuer.js';
import type { OnProgress } from './progress.js';

/** What one run of the suite reads: options resolved already (see resolveOptions), a launch plan and the checks. */
export interface RunOptions {
  plan: LaunchPlan;
  /** The checks and frame rules to run. */
  suite: Suite;
  /** The one revision to test: 2026-07-28 runs on the stateless wire, any other is asked for at initialize. */
  protocolVersion: string;
  /** Per-request timeout. */
  timeoutMs: number;
  /** Whole-run budget: checks still running when it is spent end as errors and the run is marked interrupted. */
  budgetMs: number;
  /** SHOULD violations fail. */
  strict: boolean;
  /** Seed of the generated checks (none given: a random one); the report records it, so a run can be replayed. */
  seed?: number;
  /** Values each property generates. */
  runs: number;
  /** Which tools generated calls may reach. */
  toolCalls: ToolCallPolicy;
  /** Aborting it (Ctrl-C) ends the checks still running as errors; the partial report comes back marked interrupted. */
  signal?: AbortSignal;
  /** A session already initialized at `protocolVersion` (the auto probe's), and its connection: the run goes on in them. */
  handover?: Handover;
  /** Fresh stdio sessions started during the auto probe: the run hands them out first, and closes those it does not take. */
  warm?: Promise<Warm>[];
  /** The revisions the auto probe found the server speaking (see ServerProfile.spoken). */
  spoken?: string[];
  /** An era the auto probe left out, because the server said it does not speak it: that era's checks skip with the reason. */
  eraLeftOut?: EraLeftOut;
  /** The --auth-server, when the run has one: the authorization checks ask it for tokens. */
  issuer?: LocalIssuer;
  /** Told as each check starts and ends (a live progress line). */
  onProgress?: OnProgress;
  /**
   * Given for one revision of several (--revision all): when the handshake shows that the server does not speak the
   * revision (see unspokenBy), every check skips with the reason, which this is told, instead of the handshake failing.
   */
  unspoken?: (reason: string) => void;
}

/** A session and its connection passed on to a run, which then owns them. */
export interface Handover extends Warm {
  connection: Connection;
  /** The answer to the initialize the session sent. */
  initialized: Reply;
}

/** Starts the server, discovers it, runs every check of the suite, shuts everything down, and returns the report. */
export async function runSuite(options: RunOptions): Promise<Report> {
  const startedAt = new Date();
  const t0 = performance.now();
  const processes = countProcesses();
  const timing = timeRun();
  const deadline = t0 + options.budgetMs;
  const interruption = new Promise<never>((_, reject) => {
    const abort = () => reject(new Interrupted());
    if (options.signal?.aborted) abort();
    else options.signal?.addEventListener('abort', abort, { once: true });
  });
  interruption.catch(() => {}); // raced by discovery and every check; nobody may be listening when it fires
  const { suite, protocolVersion } = options;
  const monitor = new FrameMonitor(suite.frameRules);
  const sessions: Session[] = [];
  // Probes shared by several checks (version negotiation) run once per run.
  const memo = new Map<string, Promise<unknown>>();
  const seed = options.seed ?? randomSeed();
  const generation: Generation = {
    seed,
    runs: options.runs,
    toolCalls: options.toolCalls,
    slowTools: new Map(),
    ...(options.issuer && { issuer: options.issuer }),
    // Everything that decides the generated values and which tools they reach: seed, runs, revision, tool policy, target.
    // A server in the caller's process has no command line: its replay is the options of runConformance.
    replay: (id) =>
      options.plan.serve
        ? replayOptions(id, seed, protocolVersion, options)
        : [
            'mcp-conformance',
            '--seed',
            seed,
            ...(options.runs !== DEFAULTS.runs ? ['--runs', options.runs] : []),
            '--revision',
            protocolVersion,
            ...(options.toolCalls.mode !== DEFAULTS.toolCalls ? ['--tool-calls', options.toolCalls.mode] : []),
            ...options.toolCalls.allow.flatMap((tool) => ['--allow-tool', quoteArg(tool)]),
            '--only',
            id,
            options.plan.cliTarget ?? quoteArg(options.plan.description),
          ].join(' '),
  };

  const { handover } = options;
  const connection =
    handover?.connection ?? connect(options.plan, { timeoutMs: options.timeoutMs, probeVersion: REVISIONS[0] });
  // A fresh session's server start is given up when the run is stopped while it waits its turn (not the shared one's:
  // the stopped run still reports on it).
  const open = async (why: string, signal?: AbortSignal) => {
    const transcript = new Transcript();
    const session = new Session(await connection.open(transcript, signal), transcript, options.timeoutMs);
    // Over stdio each session is a process; over HTTP the first is on the server the run started, if it did.
    if (session.transport.kind === 'stdio' || (sessions.length === 0 && options.plan.command)) started(session, why);
    else if (sessions.length > 0) sharesProcessOf(session, sessions[0]);
    sessions.push(session);
    monitor.watch(session);
    return session;
  };
  const adopt = ({ session, earlier }: Warm) => {
    sessions.push(session);
    monitor.watch(session, earlier());
    return session;
  };

  // A launch error propagates: it is the user's to fix (exit 2).
  const shared = handover
    ? taken(adopt(handover), SHARED)
    : await open(SHARED).catch(async (err: Error) => {
        await connection.close();
        throw err;
      });
  const kind = shared.transport.kind;
  const lanes = scratchLanes(kind !== 'stdio' || gateFor(options.plan).roomy);
  // Over stdio, a server lost mid-run is restarted for the checks after (the handshake again, not discovery).
  const sharedServer = new SharedServer(
    shared,
    (afterTurn) => open(afterTurn ? AFTER_TURN : RESTART),
    protocolVersion,
    overStdio(kind) ? MAX_RESTARTS : 0,
  );
  // Fresh sessions (version probes, uninitialized cases, scratch sessions) over stdio cost a process start each: a few
  // are started ahead (beside the auto probe, `warm`, else now, while discovery runs) and handed out first; no more
  // than the run will take, so a narrow run starts none it does not use.
  const pool: Promise<Session>[] = [];
  const warm = options.warm ?? [];
  if (overStdio(kind)) {
    const applies = suite.checks.filter((c) => elsewhere(c, kind, protocolVersion) === undefined);
    // On the stateless wire the checks marked `elsewhere` share one second connection.
    const stateless = protocolVersion === STATELESS_REVISION;
    const second = stateless && applies.some((c) => c.elsewhere) ? 1 : 0;
    // A check that takes a session handed on (HAND_ON) starts none when its giver passed. An extension's check opens
    // its own when it needs one: most servers implement no extension, and a session started ahead for it is a start
    // wasted (a heavy server's 2 s).
    const takers =
      applies.filter((c) => c.fresh && !(stateless && c.elsewhere) && c.extension === undefined).length -
      handOnPairs(applies.map((c) => c.id)).length +
      second +
      // On the stateless wire the scratch turns take the second connection (see runChecks).
      (stateless ? 0 : Math.min(lanes, applies.filter((c) => c.scratch).length));
    for (const w of warm.splice(0, takers)) pool.push(w.then(adopt));
    for (let i = pool.length; i < Math.min(FRESH_POOL, takers); i++) pool.push(open(STARTED_AHEAD, options.signal));
    for (const p of pool) p.catch(() => {}); // a failed start is reported to the check that takes it
  }
  // Started for a run that takes fewer (a narrow one).
  const unused = warm.splice(0).map((w) =>
    w.then(
      (s) => s.session.close(),
      () => {},
    ),
  );
  let profile: ServerProfile | undefined;
  const results: CheckResult[] = [];
  const lostWaiting = new Set<string>();
  const silent = new Map<string, Exchange[]>();
  let interrupted = false;
  /** Set when the server wants a token the run lacks: only the authorization area runs. */
  let locked: string | undefined;
  /** Set when the server does not speak the revision, one of several asked for: every check skips with it. */
  let notSpoken: string | undefined;
  try {
    // Discovery is bounded like a check: by the budget and by an interruption.
    let budgetTimer: NodeJS.Timeout | undefined;
    const budget = new Promise<never>(
      (_, reject) =>
        (budgetTimer = setTimeout(() => reject(new BudgetSpent()), Math.max(0, deadline - performance.now()))),
    );
    budget.catch(() => {});
    try {
      profile = await Promise.race([discover(shared, protocolVersion, handover?.initialized), interruption, budget]);
      if (options.spoken) profile.spoken = options.spoken;
      monitor.context.capabilities = profile.capabilities;
      monitor.context.transport = kind;
    } catch (err) {
      const stopped = err instanceof Interrupted || err instanceof BudgetSpent;
      locked = stopped ? undefined : await lockedOut(shared);
      // Stopped before anything was checked: an error, never a pass of nothing.
      if (stopped) {
        interrupted = true;
        results.push(handshakeStopped(err instanceof BudgetSpent, shared, protocolVersion));
      } else if (locked) profile = lockedProfile(protocolVersion);
      else {
        notSpoken = options.unspoken ? unspokenBy(err, protocolVersion) : undefined;
        if (notSpoken) {
          options.unspoken!(notSpoken);
          results.push(handshakeUnspoken(notSpoken, shared, protocolVersion));
        } else results.push(handshakeFailure(err as Error, shared, protocolVersion));
      }
      // A revision the server says it does not speak: the handshake's check names the cause, and each check skips with it.
      const why = notSpoken ?? (err instanceof UnsupportedEra ? err.message : undefined);
      if (!stopped && !locked && why)
        results.push(
          ...suite.checks
            .filter((c) => c.id !== results[0].id)
            .map((c) => notRun(c, `not run: the server does not support ${protocolVersion} (${why})`)),
        );
    } finally {
      clearTimeout(budgetTimer);
    }
    if (profile) {
      const state: RunState = {
        profile,
        shared: sharedServer,
        open: (why) => pool.shift()?.then((s) => taken(s, why)) ?? open(why, options.signal),
        memo,
        timeoutMs: options.timeoutMs,
        deadline,
        interruption,
        generation,
        lostWaiting,
        silent,
        budgetSpent: false,
        scratchLanes: lanes,
        settling: [],
      };
      results.push(...(await runChecks(suite.checks, state, kind, options.eraLeftOut, locked, options.onProgress)));
      interrupted = options.signal?.aborted === true || state.budgetSpent;
      // Every session that a request went unanswered in gets its one more --timeout for a late answer before it
      // closes (a check's own sessions already have it under way; the shared and scratch ones get it now).
      await Promise.all(state.settling);
      const unanswered = [...silent.values()].flat();
      if (!interrupted && unanswered.length > 0)
        await Promise.all(sessions.map((s) => s.lateGrace(unanswered, options.timeoutMs)));
    }
  } finally {
    await Promise.allSettled([...pool.splice(0), ...unused]); // untaken ones are in `sessions` once started
    await sharedServer.settle();
    await Promise.all(sessions.map((s) => s.close()));
    await connection.close();
  }
  return assembleReport({
    plan: options.plan,
    strict: options.strict,
    seed,
    startedAt,
    t0,
    profile,
    results,
    interrupted,
    sessions,
    silent,
    lostWaiting,
    monitor,
    transport: kind,
    framesSkipped: locked ?? (notSpoken && `not run: the server does not support ${protocolVersion} (${notSpoken})`),
    processes: {
      ...processes.stop(),
      ...(options.plan.command && gateFacts(options.plan)),
      servers: serversOf(sessions, protocolVersion),
    },
    criticalPath: timing.stop(performance.now() - t0),
  });
}

/** The replay of a check of a server in-process: the runConformance options that run it alone with the same values. */
function replayOptions(id: string, seed: number, revision: string, { runs, toolCalls }: RunOptions): string {
  const fields = [
    'serve',
    `seed: ${seed}`,
    ...(runs !== DEFAULTS.runs ? [`runs: ${runs}`] : []),
    `revision: '${revision}'`,
    ...(toolCalls.mode !== DEFAULTS.toolCalls ? [`toolCalls: '${toolCalls.mode}'`] : []),
    ...(toolCalls.allow.length > 0 ? [`allowTools: ${JSON.stringify(toolCalls.allow)}`] : []),
    `only: [${JSON.stringify(id)}]`,
  ];
  return `runConformance({ ${fields.join(', ')} })`;
}
