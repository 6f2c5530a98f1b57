// `mcp-conformance client` as a user runs it: the reference client as a process under the official contract, a
// hostile client that never connects, floods and never exits, and usage errors.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../../src/transport/process-tree.js';
import { runCli } from '../helpers.js';

const REFERENCE = fileURLToPath(new URL('../../examples/reference-client/client.mjs', import.meta.url));

describe.concurrent('mcp-conformance client', () => {
  it('runs the reference client under the contract, one process per scenario (side by side, reported in order), and passes', async () => {
    const r = await runCli(['client', '--scenario', 'initialize', '--scenario', 'tools_call', '--', 'node', REFERENCE]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.report?.client).toMatchObject({ name: 'mcp-conformance-reference-client', protocolVersion: '2025-11-25' });
    expect(r.report?.client?.scenarios.map((s) => `${s.name}@${s.revision}: ${s.exit}`)).toEqual([
      'initialize@2025-11-25: exit code 0',
      'initialize@2026-07-28: exit code 0',
      'tools_call@2025-11-25: exit code 0',
      'tools_call@2026-07-28: exit code 0',
    ]);
    expect(r.stdout).toContain('client      mcp-conformance-reference-client 1.0.0');
    const junit = await readFile(join(r.out, 'junit.xml'), 'utf8');
    expect(junit).toContain('<testsuite name="client-side/http"');
  });

  it('ends a client that floods and never exits at its budget, with every report and no process left', async () => {
    const script =
      "require('fs').writeFileSync(process.env.PIDFILE, String(process.pid)); process.stdout.write('x'.repeat(1e6)); setInterval(() => {}, 1000)";
    const pidfile = join(await import('node:os').then((os) => os.tmpdir()), `client-pid-${process.pid}-${Date.now()}`);
    const r = await runCli(
      [
        'client',
        '--scenario',
        'initialize',
        '--revision',
        '2025-11-25',
        '--scenario-timeout',
        '2',
        '--',
        'node',
        '-e',
        script,
      ],
      { PIDFILE: pidfile },
    );
    expect(r.exitCode).toBe(2);
    expect(r.report?.checks.every((c) => c.status === 'error')).toBe(true);
    expect(r.report?.checks[0].message).toContain('made no request to the test server');
    const pid = Number(await readFile(pidfile, 'utf8'));
    expect(isAlive(pid)).toBe(false);
  });

  it('says what is wrong with a missing command or an unknown scenario', async () => {
    const none = await runCli(['client']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('no client command');
    const unknown = await runCli(['client', '--scenario', 'nope', '--', 'node', REFERENCE]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('unknown scenario nope');
    const width = await runCli(['client', '--max-starts', '0', '--', 'node', REFERENCE]);
    expect(width.exitCode).toBe(2);
    expect(width.stderr).toContain('--max-starts takes a whole number of at least 1, not "0"');
  });
});
