// --expected-failures as a user gives it to the CLI: exit codes, what it prints, JUnit. The file's loading and
// applying are unit-tested in test/baseline.test.ts.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
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
    expect(listed).toMatchObject({
      status: 'fail',
      baseline: { entry: 'base/method-not-found', reason: 'our router answers -32603 for now' },
    });
    expect(r.stdout).toContain('(expected failure: our router answers -32603 for now)');
    expect(r.stdout).toContain('1 expected, 0 stale, 0 unexpected, 0 failing for another reason');
    // JUnit agrees with the exit code: an expected failure is no <failure>.
    const junit = await readFile(join(r.out, 'junit.xml'), 'utf8');
    expect(junit).not.toContain('<failure');
    expect(junit).toContain('EXPECTED FAILURE (our router answers -32603 for now)');
  });

  it('exits 1 on a failure the file does not list, and prints the lines to add', async () => {
    const path = await file('- id: tools/call/unknown-tool\n  reason: unrelated\n');
    const r = await runCli([
      '--expected-failures',
      path,
      ...only,
      '--env',
      'MCP_FAULTS=method-not-found-code,unknown-tool-success',
      FAULTY,
    ]);
    expect(r.exitCode).toBe(1);
    expect(statusOf(r.report, 'base/method-not-found')).toBe('fail');
    expect(r.stdout).toMatch(/add:\n- id: base\/method-not-found\n {2}reason: ".+"$/);
  });

  it('exits 1 on a stale entry, and prints the lines to remove', async () => {
    const path = await file(
      '- id: base/method-not-found\n  reason: known\n- id: ping/respond\n  reason: fixed since\n',
    );
    const r = await runCli(['--expected-failures', path, ...faulty]);
    expect(r.exitCode).toBe(1);
    expect(r.report?.checks.find((c) => c.id === 'ping/respond')).toMatchObject({
      status: 'pass',
      baseline: { entry: 'ping/respond' },
    });
    expect(await readFile(join(r.out, 'junit.xml'), 'utf8')).toContain(
      'stale expected-failures entry: ping/respond passes now',
    );
    expect(r.stdout).toContain(
      'ping/respond is stale (ping/respond passes now); remove lines 3-4:\n- id: ping/respond\n  reason: fixed since',
    );
  });

  it('exits 1 when a listed check fails for another reason than its entry expects, showing both messages', async () => {
    const path = await file(
      '- id: base/method-not-found\n  reason: our router answers -32603 for now\n  message: "→ -32603"\n',
    );
    // The message the entry pins: expected.
    const same = await runCli(['--expected-failures', path, ...faulty]);
    expect(same.exitCode, same.stdout).toBe(0);
    // The same check failing because the server no longer answers at all: a new defect behind an old entry.
    const other = await runCli([
      '--expected-failures',
      path,
      '--timeout',
      '1',
      ...only,
      '--env',
      'MCP_FAULTS=silent-unknown-method',
      FAULTY,
    ]);
    expect(other.exitCode, other.stdout).toBe(1);
    const c = other.report?.checks.find((x) => x.id === 'base/method-not-found');
    expect(c).toMatchObject({
      status: 'fail',
      baseline: { entry: 'base/method-not-found', message: '→ -32603', messageDiffers: true },
    });
    expect(other.stdout).toContain(
      'FAIL  base/method-not-found  An unknown method gets error -32601 (listed as base/method-not-found, failing for another reason)',
    );
    expect(other.stdout).toMatch(
      / {2}message {5}no answer to conformance\/does-not-exist within 1\.0 s[\s\S]*?\n {2}baseline {4}base\/method-not-found expects the message → -32603; this one differs, so it fails the run/,
    );
    expect(other.stdout).toContain(
      "base/method-not-found fails for another reason than base/method-not-found expects: fix it, or change the entry's message:\n  expected  → -32603\n  actual    ",
    );
    expect(await readFile(join(other.out, 'junit.xml'), 'utf8')).toContain('<failure');
  });

  it('applies an entry only to the revision and transport it names', async () => {
    const path = await file('- id: base/method-not-found\n  reason: only on the stateless wire\n  on: 2026-07-28\n');
    const r = await runCli(['--expected-failures', path, '--revision', '2025-11-25', ...faulty]);
    expect(r.exitCode).toBe(1);
    expect(r.report?.checks.find((c) => c.id === 'base/method-not-found')?.baseline).toBeUndefined();
    // Named with its transport, the run it is for takes it.
    const pinned = await file('- id: base/method-not-found\n  reason: ours\n  on: [2026-07-28, 2025-11-25/stdio]\n');
    const ours = await runCli(['--expected-failures', pinned, '--revision', '2025-11-25', ...faulty]);
    expect(ours.exitCode, ours.stdout).toBe(0);
    expect(ours.report?.checks.find((c) => c.id === 'base/method-not-found')?.baseline).toMatchObject({
      entry: 'base/method-not-found',
    });
    const http = await file('- id: base/method-not-found\n  reason: ours\n  on: 2025-11-25/http\n');
    expect((await runCli(['--expected-failures', http, '--revision', '2025-11-25', ...faulty])).exitCode).toBe(1);
  });

  it('--update-baseline writes the file from the run, keeping the reasons written, and the next run passes', async () => {
    const path = await file(
      '# why these fail\n- id: base/method-not-found\n  reason: our router answers -32603 for now\n- id: ping/respond\n  reason: fixed since\n',
    );
    const r = await runCli([
      '--expected-failures',
      path,
      '--update-baseline',
      ...only,
      '--env',
      'MCP_FAULTS=method-not-found-code,unknown-tool-success',
      FAULTY,
    ]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/baseline {4}wrote .+: 1 entries kept, 1 added, 1 removed/);
    const text = await readFile(path, 'utf8');
    expect(text).toMatch(
      /^# why these fail\n- id: base\/method-not-found\n {2}reason: "our router answers -32603 for now"\n- id: tools\/call\/unknown-tool\n {2}reason: ".+"\n {2}message: ".+"\n$/,
    );
    const next = await runCli([
      '--expected-failures',
      path,
      ...only,
      '--env',
      'MCP_FAULTS=method-not-found-code,unknown-tool-success',
      FAULTY,
    ]);
    expect(next.exitCode, next.stdout).toBe(0);
    // A file that does not exist yet is created.
    const fresh = join(await mkdtemp(join(tmpdir(), 'mcpc-baseline-')), 'new.yaml');
    expect((await runCli(['--expected-failures', fresh, '--update-baseline', ...faulty])).exitCode).toBe(0);
    expect(await readFile(fresh, 'utf8')).toContain(
      '- id: base/method-not-found\n  reason: "an unknown method → -32603, expected -32601"\n  message: "an unknown method → -32603, expected -32601"\n',
    );
  });

  it('--update-baseline needs the file to write', async () => {
    const r = await runCli(['--update-baseline', ...faulty]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim()).toBe('mcp-conformance: --update-baseline writes the --expected-failures FILE: name it');
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
