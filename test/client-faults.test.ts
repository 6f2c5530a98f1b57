// The client-side checks against the reference client (every check passes or skips) and its faults (each row trips
// its check with its verdict), all in the test's own process.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CLIENT_CHECKS, CLIENT_SCENARIOS } from '../src/checks/client-side/index.js';
import { judge, runClientConformance, runScenario } from '../src/run/client/run.js';
import { connect } from '../examples/reference-client/client.mjs';

interface Row {
  fault: string;
  check: string;
  expect: 'fail' | 'warn';
  scenario: string;
  revision: string;
  why: string;
}
const ROWS = (
  parse(readFileSync(new URL('./fixtures/clients/faults.yaml', import.meta.url), 'utf8')) as { faults: Row[] }
).faults;
const options = { timeoutMs: 2000, scenarioMs: 5000 };

describe('client-side checks', () => {
  it('pass (or skip) on the reference client, every scenario at every revision it has', async () => {
    const report = await runClientConformance({ ...options, client: (c) => connect(c) });
    const bad = report.checks.filter((c) => c.status !== 'pass' && c.status !== 'skip');
    expect(bad.map((c) => `${c.id}: ${c.status} ${c.message}`)).toEqual([]);
    expect(report.client?.name).toBe('mcp-conformance-reference-client');
    // Only checks that need a client to act skip (and the undeclared-capability one, as it declares every capability).
    expect(report.checks.filter((c) => c.status === 'skip').map((c) => c.id)).toEqual([
      'client-side/capabilities/undeclared-answered',
    ]);
  }, 60_000);

  it('has one fault row per check', () => {
    expect(ROWS.map((r) => r.check).sort()).toEqual(CLIENT_CHECKS.map((c) => c.id).sort());
  });

  it.each(ROWS)('$fault trips $check ($expect)', async (row) => {
    const scenario = CLIENT_SCENARIOS.find((s) => s.name === row.scenario)!;
    const record = await runScenario(scenario, row.revision, {
      ...options,
      client: (c) => connect(c, row.fault),
    });
    const results = judge(CLIENT_CHECKS, [record]);
    const got = results.find((r) => r.id === row.check)!;
    expect(`${got.status}: ${got.message}`).toMatch(new RegExp(`^${row.expect}: `));
    // One fault, one finding.
    expect(
      results.filter((r) => r.id !== row.check && (r.status === 'fail' || r.status === 'warn')).map((r) => r.id),
    ).toEqual([]);
  });
});
