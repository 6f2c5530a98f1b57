// The run's budget (--budget): a check still running when it is spent ends as an error, and the report is marked interrupted.
import { describe, expect, it } from 'vitest';
import { loadSuite } from '../src/suite/suite.js';
import { resolveTarget } from '../src/target/resolve.js';
import { FAULTY } from './helpers.js';
import { runSuiteWith } from './suite-run.js';

describe.concurrent('a run whose budget is spent', () => {
  const run = async (budgetMs: number) => {
    const plan = await resolveTarget({ target: FAULTY, env: { MCP_FAULTS: 'silent-unknown-method' } });
    return runSuiteWith({ plan, suite: await loadSuite({ only: ['base/method-not-found'] }), timeoutMs: 20_000, budgetMs, runs: 5, seed: 1 });
  };

  it('ends the check still waiting as an error and marks the report interrupted', async () => {
    const report = await run(1000);
    expect(report.checks.find((c) => c.id === 'base/method-not-found')).toMatchObject({ status: 'error', message: 'run budget spent before this check finished' });
    expect(report.interrupted).toBe(true);
  });

  it('is not interrupted when the checks end within it', async () => {
    const plan = await resolveTarget({ target: FAULTY });
    const report = await runSuiteWith({ plan, suite: await loadSuite({ only: ['base/method-not-found'] }), budgetMs: 60_000, runs: 5, seed: 1 });
    expect(report.checks.find((c) => c.id === 'base/method-not-found')?.status).toBe('pass');
    expect(report.interrupted).toBeUndefined();
  });
});
