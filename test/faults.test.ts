// Each fault of the faulty server trips the check that targets it: the rows of faults.yaml run in this process.
import { describe, expect, it, vi } from 'vitest';
import { loadSuite, type Suite } from '../src/suite/suite.js';
import type { Report } from '../src/schema/generated/report.js';
import { resolveTarget } from '../src/target/resolve.js';
import { DISABLED, NO_TASKS, STATELESS, type ServerStart, type TrippingRow, trippingRows } from './fault-rows.js';
import { createFaultyServer } from './fixtures/servers/faulty-server.mjs';
import { runSuiteWith } from './suite-run.js';
import { REVISIONS } from '../src/schema/validators.js';

/** What a run of the faulty server takes from a row. */
interface RunOf {
  revision?: string;
  server?: ServerStart;
  timeoutMs?: number;
  with?: string[];
  suite?: Suite;
  runs?: number;
  seed?: number;
}
/**
 * A fault row's generated values: few, from one seed, so that a row trips the same way on every run. Enough that each
 * property reaches every tool of the reference server (a fault of one tool shows only in calls of that tool).
 */
const QUICK = { runs: 25, seed: 1 };

/** One run of the faulty server with `faults`, in this process. */
async function run(
  faults: string[],
  { timeoutMs = 5000, revision, server, suite, runs, seed }: RunOf = {},
): Promise<Report> {
  const plan = await resolveTarget({ serve: createFaultyServer(faults, server) });
  return runSuiteWith({ plan, timeoutMs, budgetMs: 60_000, protocolVersion: revision, suite, runs, seed });
}

/**
 * What a fault row runs: the check it targets, and the checks its row names `with` (a passive rule judges the frames
 * other checks' requests bring; a check that runs last judges the shared server after them). The whole suite would
 * bring those frames too, at many times the cost.
 */
const quickSuite = (check: string, row: RunOf = {}): Promise<Suite> =>
  loadSuite({ only: [check, ...(row.with ?? [])] });

/**
 * The narrow run of a row without its fault, once per check and options: it must not trip, so that a row's verdict
 * comes from the fault and not from the check running alone (or beside the checks it needs).
 */
const cleanRuns = new Map<string, Promise<Report>>();
function cleanRun(check: string, row: RunOf): Promise<Report> {
  const key = JSON.stringify([check, row]);
  if (!cleanRuns.has(key))
    cleanRuns.set(
      key,
      quickSuite(check, row).then((suite) => run([], { ...row, ...QUICK, suite })),
    );
  return cleanRuns.get(key)!;
}

const ROWS = trippingRows('in-process');
// A row's runs wait on the server's answers and timeouts in this process, not on the CPU or a process start: more of
// them side by side than the config's default (three, sized for tests that start processes).
vi.setConfig({ maxConcurrency: 8 });

/** A row's fault run beside the same run without the fault, which must not trip. */
async function proves({
  fault,
  check,
  expect: status,
  why: _why,
  tier: _tier,
  alone,
  ...row
}: TrippingRow): Promise<void> {
  const [faulty, clean] = await Promise.all([
    run([fault], { ...row, ...QUICK, suite: await quickSuite(check, row) }),
    cleanRun(check, row),
  ]);
  const result = faulty.checks.find((c) => c.id === check);
  expect(result?.status, result?.message).toBe(status);
  // One fault, one finding: the checks run beside it (those that would count it twice) do not trip.
  if (alone)
    expect(
      faulty.checks.filter((c) => !['pass', 'skip'].includes(c.status)).map((c) => `${c.id}: ${c.status} ${c.message}`),
    ).toEqual([`${check}: ${status} ${result?.message}`]);
  // A passive rule may see no frame of its kind from a server without the fault: it skips.
  const control = clean.checks.find((c) => c.id === check);
  const passes = (await loadSuite({ only: [check] })).frameRules.length > 0 ? ['pass', 'skip'] : ['pass'];
  expect(passes, `${check} without the fault: ${control?.status} ${control?.message}`).toContain(control?.status);
}

const title = (row: TrippingRow) => `${row.fault} → ${row.check} ${row.expect}`;

// A row with a short timeout is judged by a clock: these rows run first, side by side only with each other (runs that
// mostly wait on a server's silence or slowness, with little work of their own), before the rows that keep this worker
// busy, so that no other run's work delays an answer past a timeout.
describe.concurrent('each fault whose row sets a timeout trips the check that targets it', () => {
  for (const row of ROWS.filter((r) => r.timeoutMs !== undefined)) it(title(row), () => proves(row));
});

// The cancellation is timed against the other calls of its run: it runs alone.
describe('cancellation without progress', () => {
  it('cancels the slowest call a quarter of its time in, and passes on a server that honours it (progress-quiet)', async () => {
    const check = 'cancellation/request/no-response';
    const report = await run(['progress-quiet'], { ...QUICK, suite: await quickSuite(check) });
    const result = report.checks.find((c) => c.id === check);
    expect(result?.status, result?.message).toBe('pass');
    expect(result?.message).toMatch(/^tools\/call count-slowly was cancelled \d+ ms in and got no response/);
  });
});

describe('every check passes on the reference server in-process', () => {
  it('never fails or warns in any revision or configuration, and each check passes in at least one', async () => {
    const { checks, frameRules } = await loadSuite();
    const reports = await Promise.all([
      ...REVISIONS.map((revision) => run([], { revision })),
      run([], STATELESS),
      // The reference server without capabilities: the gating cases need one.
      run([], DISABLED),
      run([], NO_TASKS),
    ]);
    const bad = reports.flatMap((r) =>
      r.checks
        .filter((c) => !['pass', 'skip'].includes(c.status))
        .map((c) => `${r.server?.protocolVersion} ${c.id}: ${c.status} ${c.message}`),
    );
    expect(bad).toEqual([]);
    const passed = new Set(reports.flatMap((r) => r.checks.filter((c) => c.status === 'pass').map((c) => c.id)));
    // The Streamable HTTP checks pass over HTTP (test/e2e/http.test.ts), the process checks over stdio (test/e2e/faults.test.ts).
    const here = [...checks.filter((c) => !c.needsProcess), ...frameRules].filter((c) => c.transport !== 'http');
    expect(here.map((c) => c.id).filter((id) => !passed.has(id))).toEqual([]);
  });
});

describe('a crash fault in this process', () => {
  it('ends the server as an exit would: the check fails and the run goes on (null-id-crash)', async () => {
    const check = 'base/request/null-id';
    const report = await run(['null-id-crash'], { ...QUICK, suite: await quickSuite(check) });
    const result = report.checks.find((c) => c.id === check);
    expect(result?.status, result?.message).toBe('fail');
    expect(JSON.stringify(result?.transcript)).toContain('server crashed: output error: exited with code 1');
  });
});

describe.concurrent('each fault trips the check that targets it (in-process rows)', () => {
  it('covers every check with at least one fault (rows of either tier)', async () => {
    const { checks, frameRules } = await loadSuite();
    const covered = new Set([...ROWS, ...trippingRows('process')].map((row) => row.check));
    // The Streamable HTTP checks have their faults in test/http-faults.test.ts.
    expect(
      [...checks, ...frameRules]
        .filter((c) => c.transport !== 'http')
        .map((c) => c.id)
        .filter((id) => !covered.has(id)),
    ).toEqual([]);
  });
  for (const row of ROWS.filter((r) => r.timeoutMs === undefined)) it(title(row), () => proves(row));
});
