import { applyBaseline, loadBaseline, type Baseline } from '../baseline/baseline.js';
import { loadSuite } from '../checks/suite.js';
import { resolveOptions, type ConformanceOptions, type ResolvedOptions } from '../config/options.js';
import type { CheckResult, Report } from '../schema/generated/report.js';
import { ConfigError } from '../config/yaml-file.js';
import { handshake } from '../discovery/discover.js';
import { REVISIONS, SCHEMA_REVISIONS, STATELESS_REVISION } from '../schema/validators.js';
import { Session } from '../session/session.js';
import { Transcript } from '../session/transcript.js';
import type { LaunchPlan } from '../target/launch-plan.js';
import { connect } from '../transport/connect.js';
import { resolveTarget } from '../target/resolve.js';
import { runConformance as runSuite } from './run.js';
import { shardSuite } from './shard.js';

export interface Conformed {
  report: Report;
  options: ResolvedOptions;
  baseline?: Baseline;
}

/**
 * One run as the CLI and the API do it: options, the user's files, the target, the checks, then the baseline.
 * Aborting `signal` ends the run early with a partial report (see RunOptions.signal).
 */
export async function conform(input: ConformanceOptions, signal?: AbortSignal): Promise<Conformed> {
  const options = await resolveOptions(input);
  if (isSeveral(options.revision)) throw new ConfigError(`option revision: ${options.revision} stands for one run per revision, which only the command line does; run once per revision instead`);
  // The user's files load before the server starts: a mistake in one ends the run with no process started.
  const baseline = options.expectedFailures === undefined ? undefined : await loadBaseline(options.expectedFailures);
  const suite = await loadSuite({ caseDirs: options.cases, only: options.only, skip: options.skip });
  const plan = await planOf(options);
  // Its HTTP rules (Mcp-Method / Mcp-Name headers, no session) are not built yet: a run over HTTP would misjudge.
  if (options.revision === STATELESS_REVISION && plan.transport !== undefined && plan.transport !== 'stdio') {
    throw new ConfigError(`option revision: ${STATELESS_REVISION} is tested over stdio only for now, not ${plan.transport}`);
  }
  const report = await runSuite({
    plan,
    suite: options.shard ? shardSuite(suite, options.shard) : suite,
    protocolVersion: options.revision,
    timeoutMs: options.timeoutMs,
    budgetMs: options.budgetMs,
    strict: options.strict,
    seed: options.seed,
    runs: options.runs,
    toolCalls: options.toolCalls,
    allowTools: options.allowTools,
    signal,
  });
  if (!baseline) return { report, options };
  const frameRules = new Set(suite.frameRules.map((r) => r.id));
  const partial = (c: CheckResult) => options.shard !== undefined && frameRules.has(c.id);
  return { report: { ...report, checks: applyBaseline(report.checks, baseline, partial) }, options, baseline };
}

const isSeveral = (revision: string | undefined) => revision === 'all' || revision === 'auto';

const planOf = ({ target, command, cwd, env, headers, httpUrl, port, transport }: ResolvedOptions) =>
  resolveTarget({ target, command, cwd, env, headers, httpUrl, port, transport });

/**
 * One run per revision that `--revision all` (every revision the project knows) or `auto` (every era the server
 * speaks) stands for, one after the other, each with its own report and verdict; any other revision is one run.
 */
export async function conformEach(input: ConformanceOptions, signal?: AbortSignal): Promise<Conformed[]> {
  const options = await resolveOptions(input);
  if (!isSeveral(options.revision)) return [await conform(input, signal)];
  const plan = await planOf(options);
  // The stateless wire is tested over stdio only (see conform).
  const stateless = plan.transport === undefined || plan.transport === 'stdio';
  const all = options.revision === 'all' ? SCHEMA_REVISIONS.filter((r) => stateless || r !== STATELESS_REVISION) : await spokenRevisions(plan, options.timeoutMs, stateless);
  const runs: Conformed[] = [];
  for (const revision of all) {
    if (signal?.aborted) break;
    runs.push(await conform({ ...input, revision: revision as NonNullable<ConformanceOptions['revision']> }, signal));
  }
  return runs;
}

/** The revisions a server speaks: 2026-07-28 when it answers server/discover, and the one it negotiates at initialize. */
async function spokenRevisions(plan: LaunchPlan, timeoutMs: number, stateless: boolean): Promise<string[]> {
  const connection = connect(plan, { timeoutMs });
  const probe = async (revision: string) => {
    const transcript = new Transcript();
    const session = new Session(await connection.open(transcript), transcript, timeoutMs);
    try {
      await handshake(session, revision);
      return session.revision;
    } catch {
      return undefined; // this era is not spoken (a refusal, a timeout or a crash)
    } finally {
      await session.close();
    }
  };
  try {
    const found = [...(stateless ? [await probe(STATELESS_REVISION)] : []), await probe(REVISIONS[0])].filter((r) => r !== undefined);
    // A server that speaks neither still gets the default run, whose report says why it failed.
    return found.length > 0 ? found : [REVISIONS[0]];
  } finally {
    await connection.close();
  }
}
