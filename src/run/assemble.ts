// The report of a run, assembled from its results once every session has closed.
import { CHECKS } from '../checks/index.js';
import { handshakeCheckId, UnsupportedEra } from '../discovery/discover.js';
import type { ServerProfile } from '../discovery/profile.js';
import type { CheckResult, CriticalPath, Report } from '../schema/generated/report.js';
import { summarize } from '../report/summary.js';
import { STATELESS_REVISION } from '../schema/revisions.js';
import type { Exchange, Session } from '../session/session.js';
import type { LaunchPlan } from '../target/launch-plan.js';
import { redact, redactUrl, secretsOf } from '../transport/secrets.js';
import type { TransportKind } from '../transport/transport.js';
import { TOOL } from '../version.js';
import { bounded } from '../json.js';
import { noteCause } from './causes.js';
import type { FrameMonitor } from './frame-monitor.js';
import { noteLateAnswers } from './late-answers.js';
import { checkResult } from './result.js';

/** What a run leaves for its report. */
export interface Finished {
  plan: LaunchPlan;
  strict: boolean;
  seed: number;
  startedAt: Date;
  /** performance.now() at the start. */
  t0: number;
  profile?: ServerProfile;
  /** The active checks' results, in suite order. */
  results: CheckResult[];
  interrupted: boolean;
  sessions: Session[];
  silent: ReadonlyMap<string, Exchange[]>;
  lostWaiting: ReadonlySet<string>;
  monitor: FrameMonitor;
  transport: TransportKind;
  /**
   * Set when the server wants a token the run lacks (see lockedOut), or does not speak the revision (one of several
   * asked for): the frame rules skip with it.
   */
  framesSkipped?: string;
  /** Server processes the run started, and the most alive at once. */
  processes: NonNullable<Report['processes']>;
  /** Where the run's time went. */
  criticalPath?: CriticalPath;
}

/** The handshake's check when the run was stopped (Ctrl-C, SIGTERM, --budget) before it completed: nothing was judged. */
export function handshakeStopped(budgetSpent: boolean, session: Session, protocolVersion: string): CheckResult {
  const stateless = protocolVersion === STATELESS_REVISION;
  const def = handshakeDef(protocolVersion);
  const why = budgetSpent ? 'the run budget (--budget) was spent' : 'the run was interrupted';
  return checkResult(
    def,
    {
      status: 'error',
      message: `${why} before ${stateless ? 'server/discover' : 'initialize'} completed; no check ran`,
    },
    0,
    session.transcript.slice(0),
  );
}

/**
 * Late answers and lost servers noted on the checks they concern, the frame rules' results after the active checks',
 * warnings made failures under --strict, and every secret the server echoed shown as ***.
 */
export function assembleReport(run: Finished): Report {
  const { results } = run;
  // After every session closed: an answer may come while the server shuts down.
  noteLateAnswers(results, run.sessions, run.silent);
  noteCause(results, run.lostWaiting);
  // Without a token nothing was exchanged at the MCP level: the frames were HTTP refusals. In an era the server does not
  // speak, its refusal of the handshake is all there was.
  const skipped = run.framesSkipped;
  results.push(
    ...run.monitor
      .results(run.transport, run.profile?.revision)
      .map((r) => (skipped ? { ...r, status: 'skip' as const, message: skipped, transcript: undefined } : r)),
  );
  const checks = run.strict
    ? results.map((r) => (r.status === 'warn' ? { ...r, status: 'fail' as const } : r))
    : results;
  // Header values, secret-named --env values and named secrets (--secret): wherever the server echoed one, the report says ***.
  return redact(
    {
      tool: TOOL,
      target: targetOf(run.plan),
      ...(run.profile && { server: serverOf(run.profile) }),
      startedAt: run.startedAt.toISOString(),
      durationMs: Math.round(performance.now() - run.t0),
      strict: run.strict,
      seed: run.seed,
      ...(run.interrupted && { interrupted: run.interrupted }),
      ...((run.processes.started > 0 || run.processes.startsAtOnce !== undefined) && { processes: run.processes }),
      ...(run.criticalPath && { criticalPath: run.criticalPath }),
      summary: summarize(checks),
      checks,
    },
    secretsOf(run.plan),
  );
}

function targetOf(plan: LaunchPlan): Report['target'] {
  return {
    description: redactUrl(plan.description),
    ...(plan.command && { command: plan.command, args: plan.args, cwd: plan.cwd }),
    ...(plan.url && { url: redactUrl(plan.url) }),
  };
}

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
    counts: {
      tools: p.tools.length,
      resources: p.resources.length,
      resourceTemplates: p.resourceTemplates.length,
      prompts: p.prompts.length,
    },
  };
}

/**
 * The handshake's check when the server does not speak the revision, one of several asked for (--revision all): a skip
 * that says why, with the server's answer in the transcript.
 */
export function handshakeUnspoken(reason: string, session: Session, protocolVersion: string): CheckResult {
  return checkResult(
    handshakeDef(protocolVersion),
    {
      status: 'skip',
      message: `the server does not speak ${protocolVersion}: ${reason}; every check of ${protocolVersion} is skipped (named alone with --revision, it fails)`,
    },
    0,
    session.transcript.slice(0),
  );
}

const handshakeDef = (protocolVersion: string) => CHECKS.find((c) => c.id === handshakeCheckId(protocolVersion))!;

/** The handshake's check, failed: no other check could run (or, for an era the server does not speak, each skips). */
export function handshakeFailure(err: Error, session: Session, protocolVersion: string): CheckResult {
  const stateless = protocolVersion === STATELESS_REVISION;
  const def = handshakeDef(protocolVersion);
  const stderr = session.transport.stderrTail();
  const message =
    err instanceof UnsupportedEra
      ? `the server does not support ${protocolVersion}: ${err.message}; every check of ${protocolVersion} is skipped (--revision auto tests the revisions it lists)`
      : `${stateless ? 'server/discover' : 'initialize'} did not succeed: ${err.message}${stderr ? `\nserver stderr:\n${stderr}` : ''}; no other check could run`;
  return checkResult(
    def,
    { status: 'fail', message, expected: stateless ? 'a DiscoverResult' : 'an InitializeResult' },
    0,
    session.transcript.slice(0),
  );
}
