import { applyBaseline, loadBaseline, type Baseline, type RunContext } from '../baseline/baseline.js';
import type { Suite } from '../suite/suite.js';
import type { ResolvedOptions } from '../config/options.js';
import type { CheckResult, CriticalPath, Report } from '../schema/generated/report.js';
import { timeRun, within } from '../timing.js';
import { ConfigError } from '../config/yaml-file.js';
import { eraRefusal, handshakeCheckId, initialize, statelessMeta } from '../discovery/discover.js';
import { isObject } from '../json.js';
import { mergeReports } from '../report/merge.js';
import { summarize } from '../report/summary.js';
import { REVISIONS, SCHEMA_REVISIONS, STATELESS_REVISION } from '../schema/revisions.js';
import { type Reply, Session } from '../session/session.js';
import { Transcript } from '../transcript.js';
import type { LaunchPlan } from '../target/launch-plan.js';
import { connect } from '../transport/connect.js';
import { countProcesses, type ProcessCount } from '../transport/server-process.js';
import { gateFor } from '../transport/start-gate.js';
import { untilAsleep } from '../transport/process-tree.js';
import { resolveTarget } from '../target/resolve.js';
import type { Handover } from './run.js';
import { shardSuite } from '../suite/shard.js';
import { Interrupted } from './attempt.js';
import { FRESH_POOL, type Warm, keepInbound } from './warm.js';
import type { OnProgress, Progress } from './progress.js';
import { ISSUER_ENV, JWKS_ENV, LocalIssuer } from '../auth/issuer.js';
import { AUTO_PROBE, STARTED_AHEAD, serversOf, started } from './process-log.js';

export interface Conformed {
  report: Report;
  options: ResolvedOptions;
  baseline?: Baseline;
  /** The revision and transport of the run, which baseline entries may name. */
  run: RunContext;
  /** Why --revision auto left an era out, when the server said it does not speak it. */
  note?: string;
  /** Server processes the whole command started (the auto probe's too), and the most alive at once. */
  processes?: NonNullable<Report['processes']>;
  /** Where the whole command's time went (the auto probe's too). */
  criticalPath?: CriticalPath;
  /** Why the server does not speak this revision, one of several asked for (--revision all): its checks skipped. */
  unspoken?: string;
}

/**
 * One run of one revision: the user's files, the target, the checks, then the baseline.
 * Aborting `signal` ends the run early with a partial report (see RunOptions.signal).
 */
export async function conform(options: ResolvedOptions, signal?: AbortSignal): Promise<Conformed> {
  if (isSeveral(options.revision))
    throw new ConfigError(`option revision: ${options.revision} stands for one run per revision: see conformEach`);
  return withIssuer(options, async (options) => runOne(options, await loadFiles(options), signal));
}

/**
 * Runs `fn` with the --auth-server listening (when asked for), and stops it after. Its URLs are printed for a server
 * started elsewhere, and given to a server the run starts in its environment.
 */
async function withIssuer<T>(options: ResolvedOptions, fn: (options: ResolvedOptions) => Promise<T>): Promise<T> {
  if (!options.authServer) return fn(options);
  const issuer = await LocalIssuer.start(options.authServerPort).catch((err: NodeJS.ErrnoException) => {
    throw new ConfigError(
      `--auth-server could not listen on 127.0.0.1${options.authServerPort ? `:${options.authServerPort}` : ''}: ${err.code ?? err.message}`,
    );
  });
  process.stderr.write(`auth server: issuer ${issuer.issuer}, JWKS ${issuer.jwksUrl} (${ISSUER_ENV}, ${JWKS_ENV})\n`);
  try {
    return await fn({ ...options, issuer });
  } finally {
    await issuer.close();
  }
}

/**
 * The user's files and the checks. The checks (with Ajv and fast-check) load when first needed, so that a run's first
 * server can start while they load (see conformEach).
 */
async function loadFiles(options: ResolvedOptions): Promise<{ baseline?: Baseline; suite: Suite }> {
  const baseline = options.expectedFailures === undefined ? undefined : await loadBaseline(options.expectedFailures);
  const { loadSuite } = await import('../suite/suite.js');
  return { baseline, suite: await loadSuite({ caseDirs: options.cases, only: options.only, skip: options.skip }) };
}

/** Whether the user gave files of their own (cases, expected failures): they are loaded before any server starts. */
const hasUserFiles = (options: ResolvedOptions) => options.cases.length > 0 || options.expectedFailures !== undefined;

/** The run of `options.revision` (one revision), then the baseline; `start` is the target resolved already, maybe with a session to go on in. */
async function runOne(
  options: ResolvedOptions,
  { baseline, suite }: { baseline?: Baseline; suite: Suite },
  signal?: AbortSignal,
  start?: {
    plan: LaunchPlan;
    handover?: Handover;
    warm?: Promise<Warm>[];
    eraLeftOut?: { revision: string; reason: string };
    /** The revisions the auto probe found spoken. */
    spoken?: string[];
    /** One revision of several (--revision all): one the server does not speak is skipped, not failed. */
    oneOfAll?: boolean;
  },
  onProgress?: OnProgress,
): Promise<Conformed> {
  const plan = start?.plan ?? (await planOf(options));
  // The stateless wire is not defined over the legacy HTTP+SSE transport (deprecated before it).
  if (options.revision === STATELESS_REVISION && plan.transport === 'sse') {
    throw new ConfigError(
      `option revision: ${STATELESS_REVISION} has no legacy HTTP+SSE transport; test it over Streamable HTTP or stdio`,
    );
  }
  const { runSuite } = await import('./run.js');
  let unspoken: string | undefined;
  const report = await runSuite({
    plan,
    suite: options.shard ? shardSuite(suite, options.shard) : suite,
    protocolVersion: options.revision,
    timeoutMs: options.timeoutMs,
    budgetMs: options.budgetMs,
    strict: options.strict,
    seed: options.seed,
    runs: options.runs,
    toolCalls: { mode: options.toolCalls, allow: options.allowTools },
    signal,
    handover: start?.handover,
    warm: start?.warm,
    eraLeftOut: start?.eraLeftOut,
    spoken: start?.spoken,
    onProgress,
    issuer: options.issuer,
    ...(start?.oneOfAll && { unspoken: (reason: string) => (unspoken = reason) }),
  });
  const note = unspoken ? `${options.revision} not spoken: ${unspoken}` : start?.eraLeftOut?.reason;
  // A plan names no transport for stdio (its default); a legacy SSE server found behind an http plan counts as http.
  const run: RunContext = {
    revision: options.revision,
    transport: plan.transport ?? (plan.url === undefined ? 'stdio' : 'http'),
  };
  if (!baseline) return { report, options, run, note, ...(unspoken && { unspoken }) };
  const frameRules = new Set(suite.frameRules.map((r) => r.id));
  const partial = (c: CheckResult) => options.shard !== undefined && frameRules.has(c.id);
  return {
    report: { ...report, checks: applyBaseline(report.checks, baseline, run, partial) },
    options,
    baseline,
    run,
    note,
    ...(unspoken && { unspoken }),
  };
}

const isSeveral = (revision: string) => revision === 'all' || revision === 'auto';

async function planOf({
  target,
  command,
  serve,
  cwd,
  env,
  headers,
  httpUrl,
  port,
  transport,
  secrets,
  tokenEnv,
  issuer,
  maxStarts,
}: ResolvedOptions): Promise<LaunchPlan> {
  const resolved = await resolveTarget({
    target,
    command,
    serve,
    cwd,
    env,
    headers: { ...headers, ...bearerFrom(tokenEnv, env) },
    httpUrl,
    port,
    transport,
  });
  // A server the run starts learns the --auth-server it is to trust (the user's --env may name another).
  const trust: Record<string, string> =
    issuer && resolved.command ? { [ISSUER_ENV]: issuer.issuer, [JWKS_ENV]: issuer.jwksUrl } : {};
  const plan = {
    ...resolved,
    env: { ...trust, ...resolved.env },
    secretNames: [...secrets, ...(tokenEnv === undefined ? [] : [tokenEnv])],
  };
  if (plan.command && maxStarts !== undefined) gateFor(plan).limit = maxStarts;
  return plan;
}

/** The Authorization header --token-env NAME stands for; an unset or empty variable is the user's to fix. */
function bearerFrom(name: string | undefined, env: Record<string, string>): Record<string, string> {
  if (name === undefined) return {};
  const token = (env[name] ?? process.env[name] ?? '').trim();
  if (token === '') throw new ConfigError(`--token-env ${name}: the environment variable ${name} is not set or empty`);
  return { Authorization: `Bearer ${token}` };
}

/**
 * One run per revision that `all` (every revision the project knows) or `auto` (the default: every era the server
 * speaks) stands for, one after the other, each with its own report and verdict; any other revision is one run.
 */
export async function conformEach(
  resolved: ResolvedOptions,
  signal?: AbortSignal,
  onProgress?: OnProgress,
): Promise<Conformed[]> {
  return withIssuer(resolved, (options) => runEach(options, signal, onProgress));
}

async function runEach(options: ResolvedOptions, signal?: AbortSignal, onProgress?: OnProgress): Promise<Conformed[]> {
  // The auto probe's servers and the sessions it started ahead count too: what the whole command cost.
  const counting = countProcesses();
  const timing = timeRun();
  const t0 = performance.now();
  let counted!: ProcessCount;
  let criticalPath!: CriticalPath;
  const runs = await runEachCounted(options, signal, onProgress).finally(() => {
    counted = counting.stop();
    criticalPath = timing.stop(performance.now() - t0);
  });
  // The gate's facts are the command's (every run of it shares the gate): the first run's report has them.
  const { startsAtOnce, firstStartMs } = runs[0]?.report.processes ?? {};
  const processes = {
    ...counted,
    ...(startsAtOnce !== undefined && { startsAtOnce }),
    ...(firstStartMs !== undefined && { firstStartMs }),
    servers: runs.flatMap((run) => run.report.processes?.servers ?? []),
  };
  const whole = (report: Report): Report => ({
    ...report,
    ...(processes.started > 0 && { processes }),
    ...(report.criticalPath && { criticalPath }),
  });
  return runs.map((run) => ({
    ...run,
    ...(processes.started > 0 && { processes }),
    criticalPath,
    report: runs.length === 1 ? whole(run.report) : run.report,
  }));
}

async function runEachCounted(
  options: ResolvedOptions,
  signal?: AbortSignal,
  onProgress?: OnProgress,
): Promise<Conformed[]> {
  const { revision } = options;
  // A mistake in the user's files ends the run with no server started; with none, the checks load while the auto
  // probe's server starts (built-in cases are checked at build time).
  const early = hasUserFiles(options) ? await loadFiles(options) : undefined;
  if (!isSeveral(revision))
    return [await runOne({ ...options, revision }, early ?? (await loadFiles(options)), signal, undefined, onProgress)];
  const plan = await planOf(options);
  // The stateless wire has no legacy HTTP+SSE transport (see conform).
  const stateless = plan.transport !== 'sse';
  // A narrow run (--only, --shard) may take none of the sessions started ahead.
  const warm = (options.only ?? []).length === 0 && options.shard === undefined ? FRESH_POOL : 0;
  const probing = revision === 'auto' && stateless ? spokenRevisions(plan, options.timeoutMs, warm, signal) : undefined;
  probing?.catch(() => {}); // awaited below, once the checks are loaded
  const files =
    early ??
    (await loadFiles(options).catch(async (err: unknown) => {
      const spoken = await probing?.catch(() => undefined);
      await release(spoken?.handover, spoken?.warm);
      await release(spoken?.statelessHandover);
      throw err;
    }));
  // Interrupted while probing: the run below reports the interruption (at the newest initialize revision).
  const spoken = await probing?.catch((err: unknown) => {
    if (err instanceof Interrupted) return undefined;
    throw err;
  });
  const all =
    spoken?.revisions ??
    (revision === 'all' ? SCHEMA_REVISIONS.filter((r) => stateless || r !== STATELESS_REVISION) : [REVISIONS[0]]);
  const eraLeftOut =
    spoken?.refused === undefined
      ? undefined
      : {
          revision: STATELESS_REVISION,
          reason: `${STATELESS_REVISION} not run: ${spoken.refused}; the server is tested on the initialize wire only`,
        };
  // Runs overlap when each can have a server of its own: over stdio, or over HTTP when the run starts the server on a
  // free port. A server already running at a URL, or one on the user's fixed port, takes one run at a time.
  // A server heavy to start overlaps too: the StartGate keeps its starts one a core whichever run asks, and each run
  // starts few (its scratch checks take turns on its shared session), so the two runs share the starts' wait rather
  // than add them up (mongodb-mcp-server, both eras: 18.9 s one after the other, 15.5 s side by side, same verdicts).
  const apart =
    plan.url === undefined ||
    (plan.command !== '' && options.port === 'auto' && options.httpUrl?.includes('{port}') === true);
  const told = progressOfEach(all, onProgress);
  const runs: Conformed[] = [];
  // The run that goes on in the auto probe's session (the initialize wire's) goes first: its server is up already.
  const order = all.map((_, i) => i);
  const handedTo = spoken?.handover ? all.indexOf(REVISIONS[0]) : -1;
  if (handedTo > 0) order.unshift(...order.splice(handedTo, 1));
  const statelessAt = spoken?.statelessHandover ? all.indexOf(STATELESS_REVISION) : -1;
  /** The runs that went on in a session the auto probe handed over: the others' are closed after. */
  const took = new Set<number>();
  let next = 0;
  const worker = async () => {
    for (let k = next++; k < order.length; k = next++) {
      const i = order[k];
      if (signal?.aborted && k > 0) return; // the first run still reports the interruption
      took.add(i);
      const own = k > 0 && apart && plan.url !== undefined ? await otherPort(options, plan) : plan;
      const first = k === 0;
      runs[i] = await runOne(
        { ...options, revision: all[i] },
        files,
        signal,
        {
          plan: own,
          handover: i === handedTo ? spoken?.handover : i === statelessAt ? spoken?.statelessHandover : undefined,
          warm: first ? spoken?.warm : undefined,
          eraLeftOut,
          spoken: spoken?.revisions,
          oneOfAll: revision === 'all',
        },
        told?.(all[i]),
      );
    }
  };
  // A run that cannot start ends the command, once the run beside it has ended too (and stopped its servers).
  const ended = await Promise.allSettled(
    Array.from({ length: apart ? Math.min(RUNS_AT_ONCE, all.length) : 1 }, worker),
  );
  if (statelessAt >= 0 && !took.has(statelessAt)) await release(spoken?.statelessHandover);
  const failed = ended.find((e) => e.status === 'rejected');
  if (failed) throw failed.reason;
  // The auto probe's processes that no run went on in (and sessions started ahead that the first run did not take).
  const first = runs[order[0]]?.report.processes;
  first?.servers?.unshift(...serversOf(spoken?.probed ?? []));
  return spokenNone(runs.filter(Boolean));
}

/**
 * Runs of --revision all when the server speaks none of the revisions: that is no run that tested nothing, but a
 * server whose every handshake was refused, so each handshake's check fails.
 */
function spokenNone(runs: Conformed[]): Conformed[] {
  if (runs.length === 0 || runs.some((r) => r.unspoken === undefined)) return runs;
  return runs.map((run) => {
    const handshake = handshakeCheckId(run.options.revision);
    const checks = run.report.checks.map((c) =>
      c.id === handshake
        ? {
            ...c,
            status: 'fail' as const,
            message: `${c.message}\nThe server speaks none of the revisions asked for, so this fails.`,
          }
        : c,
    );
    return { ...run, report: { ...run.report, checks, summary: summarize(checks) } };
  });
}

/** Runs of several revisions (one per era of a dual-era server) that go side by side, at most. */
const RUNS_AT_ONCE = 2;

/** The plan again with another free port, for a run beside the first: two servers cannot listen on one. */
async function otherPort(options: ResolvedOptions, first: LaunchPlan): Promise<LaunchPlan> {
  let plan = await planOf(options);
  for (let tries = 1; plan.url === first.url && tries < 5; tries++) plan = await planOf(options);
  return plan;
}

/**
 * One progress for runs side by side, their counts added up: each run's told under its revision. An area's line is
 * its own run's.
 */
function progressOfEach(
  revisions: string[],
  onProgress: OnProgress | undefined,
): ((revision: string) => OnProgress) | undefined {
  if (!onProgress) return undefined;
  if (revisions.length === 1) return (revision) => (p) => onProgress({ ...p, revision });
  const latest = new Map<string, Progress>();
  return (revision) => (p) => {
    latest.set(revision, p);
    const all = [...latest.values()];
    const sum = (field: 'done' | 'total' | 'failures') => all.reduce((n, q) => n + q[field], 0);
    const running = [...latest].filter(([, q]) => q.done < q.total).map(([r]) => r);
    onProgress({
      done: sum('done'),
      total: sum('total'),
      failures: sum('failures'),
      current: p.current,
      revision: p.areaDone ? revision : running.join(' + ') || revision,
      ...(p.areaDone && { areaDone: p.areaDone }),
    });
  };
}

/** The revision a run of conformEach stood for (the server may have negotiated an older one): it names the run's folder. */
export const revisionOf = ({ options }: Conformed): string => options.revision;

/** Several runs as one report, side by side, each check id prefixed with its revision; one run as it is. */
export function combined(runs: readonly Conformed[]): Report {
  if (runs.length === 1) return runs[0].report;
  const { report } = mergeReports(
    runs.map((run) => ({
      source: revisionOf(run),
      report: run.report,
      label: revisionOf(run),
      revision: revisionOf(run),
    })),
  );
  const { processes, criticalPath } = runs[0];
  return { ...report, ...(processes && { processes }), ...(criticalPath && { criticalPath }) };
}

/** Ends a handed-over session, and sessions started ahead, that no run took. */
async function release(handover: Handover | undefined, warm: Promise<Warm>[] = []): Promise<void> {
  await Promise.all(
    warm.map((w) =>
      w.then(
        (s) => s.session.close(),
        () => {},
      ),
    ),
  );
  await handover?.session.close();
  await handover?.connection.close();
}

/** How long server/discover may stay unanswered once the initialize sent after it is answered. */
const DISCOVER_GRACE_MS = 1000;

/**
 * The eras a server speaks: 2026-07-28 when it answers server/discover, and the initialize wire when it answers
 * initialize (run at 2025-11-25, from which the server negotiates down, as a one-revision run does). Both are asked
 * at once in one session, server/discover first: a dual-era server takes its era from the first request, and a
 * legacy server that ignores server/discover costs a grace period, not a timeout. A server that speaks neither
 * still gets the initialize run, whose report says why it failed. A server that speaks only the initialize wire,
 * or (over stdio) both eras in the probe's session, keeps that session: the initialize wire's run goes on in it, first,
 * rather than starting the server again. A server that answers
 * server/discover without 2026-07-28 among its supportedVersions does not speak that era: `refused` says so.
 */
async function spokenRevisions(
  plan: LaunchPlan,
  timeoutMs: number,
  warmCount: number,
  signal?: AbortSignal,
): Promise<{
  revisions: string[];
  handover?: Handover;
  /** Over stdio, the probe's session in which the server answered server/discover after a fresh start: 2026-07-28's run goes on in it. */
  statelessHandover?: Handover;
  refused?: string;
  warm: Promise<Warm>[];
  /** Every session it started (each a process over stdio), for the report's list of processes. */
  probed: Session[];
}> {
  const connection = connect(plan, { timeoutMs, probeVersion: REVISIONS[0] });
  // A Ctrl-C or SIGTERM stops the waiting at once (a silent server would hold each wait for --timeout); the sessions
  // are closed on the way out.
  const stopped = new Promise<never>((_, reject) => {
    if (signal?.aborted) reject(new Interrupted());
    else signal?.addEventListener('abort', () => reject(new Interrupted()), { once: true });
  });
  stopped.catch(() => {});
  const until = <T>(p: Promise<T>) => Promise.race([p, stopped]);
  // Sessions after the first give up a server start still waiting its turn when the run is stopped.
  const probed: Session[] = [];
  const open = async (first = false, why = AUTO_PROBE) => {
    const transcript = new Transcript();
    const opening = connection.open(transcript, first ? undefined : signal).then((transport) => {
      const session = new Session(transport, transcript, timeoutMs);
      // Over HTTP the probe's first session is on the server its connection started, if it did.
      if (transport.kind === 'stdio' || (first && plan.command)) started(session, why);
      probed.push(session);
      return session;
    });
    return until(opening).catch((err: unknown) => {
      void opening.then(
        (s) => s.close(),
        () => {},
      );
      throw err;
    });
  };
  let handover: Handover | undefined;
  let statelessHandover: Handover | undefined;
  let refused: string | undefined;
  let warm: Promise<Warm>[] = [];
  try {
    const session = await open(true);
    const kept = keepInbound(session);
    let [stateless, legacy] = [false, false];
    /** The error code server/discover was refused with, when it was. */
    let discoverError: unknown;
    /** server/discover was answered with a result that lists no supportedVersions: no DiscoverResult. */
    let unlisted = false;
    /** The last answer to server/discover that showed the era spoken. */
    let discovered07: Reply | undefined;
    const discover = (s: Session) =>
      s.request('server/discover', { _meta: statelessMeta(STATELESS_REVISION) }).then(
        (r) => {
          if (!isObject(r.message.result)) {
            discoverError = isObject(r.message.error) ? r.message.error.code : r.message.error;
            return false;
          }
          refused = eraRefusal(r.message.result, STATELESS_REVISION);
          unlisted = !Array.isArray(r.message.result.supportedVersions);
          if (refused === undefined) discovered07 = r;
          return refused === undefined;
        },
        () => false,
      );
    try {
      const discovered = discover(session);
      const initialized = await until(initialize(session, REVISIONS[0]).catch(() => undefined));
      // Over stdio, the first fresh sessions of the run start now, while the probe waits on server/discover and the
      // checks load; not before the probe's server has answered, which must never lose a start-up race (a lock, a port)
      // to them.
      if (plan.url === undefined)
        warm = Array.from({ length: warmCount }, () => open(false, STARTED_AHEAD).then(keepInbound));
      for (const w of warm) w.catch(() => {}); // a failed start is reported to the check that takes it
      legacy = initialized !== undefined && isObject(initialized.message.result);
      // The grace for server/discover after initialize was answered: a server this run started (stdio) has it until it
      // is found asleep, waiting for input, with nothing sent (at least the grace, at most --timeout), for the warm
      // starts just begun may keep a busy server from the CPU longer than the grace; any other, the grace.
      const pid = session.transport.pid;
      stateless = await until(
        !legacy
          ? discovered
          : pid !== undefined && process.platform === 'linux'
            ? Promise.race([discovered, untilAsleep(pid, DISCOVER_GRACE_MS, timeoutMs).then(() => false)])
            : within(
                'the auto probe: server/discover unanswered after initialize',
                DISCOVER_GRACE_MS,
                discovered,
                false,
              ),
      );
      // A server of the initialize wire may answer every method it does not know with a result, server/discover too:
      // without supportedVersions that is no sign of 2026-07-28, whose run would blame it for rules it never took on.
      if (legacy && stateless && unlisted) {
        stateless = false;
        refused =
          'server/discover was answered with a result that lists no supportedVersions (no DiscoverResult), and initialize was answered';
      }
      // A server may handle initialize first and then refuse server/discover in the session it made legacy (the .NET
      // SDK over stdio answers -32600): an error other than method-not-found is asked again, alone in a fresh session.
      if (legacy && !stateless && discoverError !== undefined && discoverError !== -32601) {
        const again = await open();
        const kept = keepInbound(again);
        stateless = await until(discover(again)).catch((err: unknown) => {
          void again.close();
          throw err;
        });
        // Over stdio the session goes on as 2026-07-28's (a server start fewer), once the probe has found that era spoken.
        if (stateless && plan.url === undefined && discovered07)
          statelessHandover = { ...kept, connection, initialized: discovered07 };
        else await again.close();
      }
      if (legacy && !stateless) {
        handover = { ...kept, connection, initialized: initialized! };
        return { revisions: [REVISIONS[0]], handover, refused, warm, probed };
      }
      // A server that speaks both eras answered initialize here too: over stdio, the initialize wire's run goes on in
      // this session (a server start fewer), as a legacy server's does.
      if (legacy && stateless && plan.url === undefined) handover = { ...kept, connection, initialized: initialized! };
    } finally {
      if (!handover) await session.close();
    }
    // A server may keep to the era of the first request in a session: then initialize is asked in a fresh one, which
    // over stdio goes on as the initialize wire's session.
    if (stateless && !legacy) {
      const fresh = await open();
      const kept = keepInbound(fresh);
      const reply = await until(initialize(fresh, REVISIONS[0]).catch(() => undefined)).catch((err: unknown) => {
        void fresh.close();
        throw err;
      });
      legacy = reply !== undefined && isObject(reply.message.result);
      if (legacy && plan.url === undefined) handover = { ...kept, connection, initialized: reply! };
      else await fresh.close();
    }
    // Neither was answered (a server slow to start on a loaded machine, or one that answers nothing): the initialize
    // wire's run says what went wrong there, and the report says why 2026-07-28 was not run.
    if (!stateless && !legacy && refused === undefined && discoverError === undefined)
      refused = 'the auto probe had no answer to server/discover, nor to initialize, within --timeout';
    return {
      revisions: [...(stateless ? [STATELESS_REVISION] : []), ...(legacy || !stateless ? [REVISIONS[0]] : [])],
      refused,
      warm,
      handover,
      statelessHandover,
      probed,
    };
  } catch (err) {
    await release(undefined, warm);
    await release(handover);
    await release(statelessHandover);
    throw err;
  } finally {
    if (!handover && !statelessHandover) await connection.close();
  }
}
