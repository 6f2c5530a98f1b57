import { describe, expect, it } from 'vitest';
import { loadSuite } from '../../src/checks/suite.js';
import { REVISIONS } from '../../src/schema/validators.js';
import { runConformance } from '../../src/run/run.js';
import type { Report } from '../../src/schema/generated/report.js';
import { resolveTarget } from '../../src/target/resolve.js';
import { DISABLED, FAULT_ROWS, NO_TASKS, STATELESS } from '../fixtures/servers/faults.mjs';
import { FAULTY, REFERENCE } from '../helpers.js';

type Options = { timeoutMs?: number; env?: Record<string, string>; revision?: string };
type Row = [fault: string, check: string | null, status: 'fail' | 'warn' | null, why: string, options?: Options];
/** The rows of test/fixtures/servers/faults.mjs that this file proves (the others name the test that does). */
const ROWS = (FAULT_ROWS as Row[]).filter((row): row is [string, string, 'fail' | 'warn', string, Options?] => row[1] !== null);
async function run(target: string, { timeoutMs = 5000, env = {}, revision }: Options = {}): Promise<Report> {
  const plan = await resolveTarget({ target, env });
  return runConformance({ plan, timeoutMs, budgetMs: 60_000, strict: false, protocolVersion: revision });
}

describe('every check passes on the reference server', () => {
  it('never fails or warns in any revision or configuration, and each check passes in at least one', async () => {
    const { checks, frameRules } = await loadSuite();
    const reports = await Promise.all([
      ...REVISIONS.map((revision) => run(REFERENCE, { revision })),
      run(FAULTY, STATELESS),
      // The reference server without capabilities: the gating cases need one.
      run(FAULTY, DISABLED),
      run(FAULTY, NO_TASKS),
    ]);
    const bad = reports.flatMap((r) => r.checks.filter((c) => !['pass', 'skip'].includes(c.status)).map((c) => `${r.server?.protocolVersion} ${c.id}: ${c.status} ${c.message}`));
    expect(bad).toEqual([]);
    const passed = new Set(reports.flatMap((r) => r.checks.filter((c) => c.status === 'pass').map((c) => c.id)));
    // The Streamable HTTP checks pass over HTTP: test/e2e/http.test.ts (the stateless wire's: http-stateless.test.ts).
    expect([...checks, ...frameRules].filter((c) => c.transport !== 'http').map((c) => c.id).filter((id) => !passed.has(id))).toEqual([]);
  });
});

describe.concurrent('each fault trips the check that targets it', () => {
  it('covers every check with at least one fault', async () => {
    const { checks, frameRules } = await loadSuite();
    const covered = new Set(ROWS.map((f) => f[1]));
    // The Streamable HTTP checks have their faults in test/e2e/http.test.ts (the stateless wire's: http-stateless.test.ts).
    expect([...checks, ...frameRules].filter((c) => c.transport !== 'http').map((c) => c.id).filter((id) => !covered.has(id))).toEqual([]);
  });
  for (const [fault, check, status, , options] of ROWS) {
    it(`${fault} → ${check} ${status}`, async () => {
      const report = await run(FAULTY, { ...options, env: { ...options?.env, MCP_FAULTS: fault } });
      const result = report.checks.find((c) => c.id === check);
      expect(result?.status, result?.message).toBe(status);
    });
  }
});
