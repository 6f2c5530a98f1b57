import { applyBaseline, loadBaseline, type Baseline } from '../baseline/baseline.js';
import { loadSuite } from '../checks/suite.js';
import { resolveOptions, type ConformanceOptions, type ResolvedOptions } from '../config/options.js';
import type { CheckResult, Report } from '../schema/generated/report.js';
import { resolveTarget } from '../target/resolve.js';
import { runConformance as runSuite } from './run.js';
import { shardSuite } from './shard.js';

export interface Conformed {
  report: Report;
  options: ResolvedOptions;
  baseline?: Baseline;
}

/** One run as the CLI and the API do it: options, the user's files, the target, the checks, then the baseline. */
export async function conform(input: ConformanceOptions): Promise<Conformed> {
  const options = await resolveOptions(input);
  // The user's files load before the server starts: a mistake in one ends the run with no process started.
  const baseline = options.expectedFailures === undefined ? undefined : await loadBaseline(options.expectedFailures);
  const suite = await loadSuite({ caseDirs: options.cases, only: options.only, skip: options.skip });
  const { target, command, cwd, env, headers, httpUrl, port, transport } = options;
  const plan = await resolveTarget({ target, command, cwd, env, headers, httpUrl, port, transport });
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
  });
  if (!baseline) return { report, options };
  const frameRules = new Set(suite.frameRules.map((r) => r.id));
  const partial = (c: CheckResult) => options.shard !== undefined && frameRules.has(c.id);
  return { report: { ...report, checks: applyBaseline(report.checks, baseline, partial) }, options, baseline };
}
