// One run of the suite from a test, as the command line would run it: the options the resolver defaults, unless given.
import { loadSuite } from '../src/suite/suite.js';
import { DEFAULTS } from '../src/config/defaults.js';
import { type RunOptions, runSuite } from '../src/run/run.js';
import type { Report } from '../src/schema/generated/report.js';
import { REVISIONS } from '../src/schema/revisions.js';

/** `given` overrides the defaults: the whole suite at 2025-11-25, --timeout, --budget and --runs as defaulted, safe tool calls. */
export async function runSuiteWith(given: Pick<RunOptions, 'plan'> & Partial<RunOptions>): Promise<Report> {
  const set = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as typeof given;
  return runSuite({
    suite: set.suite ?? (await loadSuite()),
    protocolVersion: REVISIONS[0],
    timeoutMs: DEFAULTS.timeout * 1000,
    budgetMs: DEFAULTS.budget * 1000,
    strict: DEFAULTS.strict,
    runs: DEFAULTS.runs,
    toolCalls: { mode: DEFAULTS.toolCalls, allow: [] },
    ...set,
  });
}
