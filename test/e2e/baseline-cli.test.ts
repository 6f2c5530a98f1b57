// --expected-failures as a user gives it to the CLI: exit codes, what it prints, JUnit. The file's loading and
// applying are unit-tested in test/baseline.test.ts.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULTY, runCli, statusOf, tempFile } from '../helpers.js';

const file = (text: string) => tempFile(text, 'expected-failures.yaml');

describe.concurrent('--expected-failures through the CLI on the faulty server', () => {
  // The checks the entries below name: the baseline applies to whichever checks ran.
  const only = ['--only', 'base/method-not-found', '--only', 'ping/respond', '--only', 'tools/call/unknown-tool'];
  const faulty = [...only, '--env', 'MCP_FAULTS=method-not-found-code', FAULTY];

  it('exits 0 when the only failure is expected, and keeps its status in the report', async () => {
    const path = await file('- id: base/method-not-found\n  reason: our router answers -32603 for now\n');
    const r = await runCli(['--expected-failures', path, ...faulty]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    const listed = r.report?.checks.find((c) => c.id === 'base/method-not-found');
    expect(listed).toMatchObject({ status: 'fail', baseline: { entry: 'base/method-not-found', reason: 'our router answers -32603 for now' } });
    expect(r.stdout).toContain('(expected failure: our router answers -32603 for now)');
    expect(r.stdout).toContain('1 expected, 0 stale, 0 unexpected');
    // JUnit agrees with the exit code: an expected failure is no <failure>.
    const junit = await readFile(join(r.out, 'junit.xml'), 'utf8');
    expect(junit).not.toContain('<failure');
    expect(junit).toContain('EXPECTED FAILURE (our router answers -32603 for now)');
  });

  it('exits 1 on a failure the file does not list, and prints the lines to add', async () => {
    const path = await file('- id: tools/call/unknown-tool\n  reason: unrelated\n');
    const r = await runCli(['--expected-failures', path, ...only, '--env', 'MCP_FAULTS=method-not-found-code,unknown-tool-success', FAULTY]);
    expect(r.exitCode).toBe(1);
    expect(statusOf(r.report, 'base/method-not-found')).toBe('fail');
    expect(r.stdout).toMatch(/add:\n- id: base\/method-not-found\n {2}reason: ".+"$/);
  });

  it('exits 1 on a stale entry, and prints the lines to remove', async () => {
    const path = await file('- id: base/method-not-found\n  reason: known\n- id: ping/respond\n  reason: fixed since\n');
    const r = await runCli(['--expected-failures', path, ...faulty]);
    expect(r.exitCode).toBe(1);
    expect(r.report?.checks.find((c) => c.id === 'ping/respond')).toMatchObject({ status: 'pass', baseline: { entry: 'ping/respond' } });
    expect(await readFile(join(r.out, 'junit.xml'), 'utf8')).toContain('stale expected-failures entry: ping/respond passes now');
    expect(r.stdout).toContain('ping/respond is stale (ping/respond passes now); remove lines 3-4:\n- id: ping/respond\n  reason: fixed since');
  });

  it("accepts the official suite's baseline shape", async () => {
    const r = await runCli(['--expected-failures', await file('server:\n  - base/method-not-found\n'), ...faulty]);
    expect(r.exitCode, r.stdout).toBe(0);
  });

  it('exits 2 with one line naming file, line and field for a bad file, before starting the server', async () => {
    const path = await file('- id: base/method-not-found\n  reasn: typo\n');
    const r = await runCli(['--expected-failures', path, ...faulty]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/expected-failures\.yaml:2:\d+: \[0\]\.reasn: unknown key/);
    expect(r.report).toBeUndefined();
  });

  it('exits 2 naming a baseline file that does not exist', async () => {
    const r = await runCli(['--expected-failures', '/no/such/baseline.yaml', ...faulty]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('/no/such/baseline.yaml: cannot read it (ENOENT)');
  });
});
