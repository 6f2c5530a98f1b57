// The run's budget (--budget): a check still running when it is spent ends as an error, and the report is marked interrupted.
import { describe, expect, it } from 'vitest';
import { loadSuite } from '../src/suite/suite.js';
import { resolveTarget } from '../src/target/resolve.js';
import { verdict } from '../src/report/summary.js';
import { ZOO_SERVER } from './fixtures/servers/zoo/zoo.mjs';
import { FAULTY } from './helpers.js';
import { runSuiteWith } from './suite-run.js';

describe.concurrent('a run whose budget is spent', () => {
  const run = async (budgetMs: number) => {
    const plan = await resolveTarget({ target: FAULTY, env: { MCP_FAULTS: 'silent-unknown-method' } });
    return runSuiteWith({
      plan,
      suite: await loadSuite({ only: ['base/method-not-found'] }),
      timeoutMs: 60_000,
      budgetMs,
      runs: 5,
      seed: 1,
    });
  };

  it('ends the check still waiting as an error and marks the report interrupted', async () => {
    // The budget covers discovery too: enough for it on a loaded machine (about 1 s idle), well short of the 60 s the
    // check would wait.
    const report = await run(8_000);
    expect(report.checks.find((c) => c.id === 'base/method-not-found')).toMatchObject({
      status: 'error',
      message: 'run budget spent before this check finished',
    });
    expect(report.interrupted).toBe(true);
  });

  it('is not interrupted when the checks end within it', async () => {
    const plan = await resolveTarget({ target: FAULTY });
    const report = await runSuiteWith({
      plan,
      suite: await loadSuite({ only: ['base/method-not-found'] }),
      budgetMs: 60_000,
      runs: 5,
      seed: 1,
    });
    expect(report.checks.find((c) => c.id === 'base/method-not-found')?.status).toBe('pass');
    expect(report.interrupted).toBeUndefined();
  });

  // A server that never answers initialize: the run is stopped before anything was checked, which is no pass.
  const stoppedEarly = async (extra: { budgetMs?: number; signal?: AbortSignal }) => {
    const plan = await resolveTarget({ target: ZOO_SERVER, env: { ZOO_MODE: 'silent' } });
    return runSuiteWith({
      plan,
      suite: await loadSuite({ only: ['lifecycle/initialize/result', 'ping/respond'] }),
      timeoutMs: 60_000,
      budgetMs: 60_000,
      ...extra,
    });
  };

  it('ends a run still waiting for initialize as an error, never a pass', async () => {
    const report = await stoppedEarly({ budgetMs: 500 });
    expect(report.checks.find((c) => c.id === 'lifecycle/initialize/result')).toMatchObject({
      status: 'error',
      message: 'the run budget (--budget) was spent before initialize completed; no check ran',
    });
    expect(report.interrupted).toBe(true);
    expect(verdict(report)).toBe('error');
  });

  it('reports a run interrupted before initialize completed as an error', async () => {
    const report = await stoppedEarly({ signal: AbortSignal.abort(130) });
    expect(report.checks.find((c) => c.id === 'lifecycle/initialize/result')).toMatchObject({
      status: 'error',
      message: 'the run was interrupted before initialize completed; no check ran',
    });
    expect(report.interrupted).toBe(true);
    expect(verdict(report)).toBe('error');
  });
});
