import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../../src/transport/process-tree.js';
import { FAULTY, REFERENCE, ROOT, runCli, statusOf } from '../helpers.js';

const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);
/** Fewer generated values, from a fixed seed, for the faulty server: these runs are about the CLI, not the values. */
const QUICK = ['--seed', '1', '--runs', '10'];
/** Only the check a fault trips: the exit code and the console follow from its verdict as from any other. */
const only = (check: string) => [...QUICK, '--only', check];

describe.concurrent('the CLI', () => {
  for (const [fault, check] of [
    ['no-jsonrpc', 'base/jsonrpc/version'],
    ['string-ids', 'base/response/id-echo'],
    ['echo-version', 'lifecycle/version/unsupported'],
    ['null-input-schema', 'tools/input-schema/valid'],
  ]) {
    it(`exits 1 with ${check} failing on a server with fault ${fault}`, async () => {
      const r = await runCli([...only(check), '--env', `MCP_FAULTS=${fault}`, FAULTY]);
      expect(r.exitCode).toBe(1);
      expect(statusOf(r.report, check)).toBe('fail');
      expect(r.stdout).toContain(check);
    });
  }

  it('runs as the bin npx finds: the built entry point is executable and runs directly', async () => {
    const main = join(ROOT, 'dist/cli/main.js');
    expect((await stat(main)).mode & 0o111).toBe(0o111);
    expect((await execa(main, ['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('turns warnings into failures with --strict', async () => {
    const r = await runCli([...only('tools/names/format'), '--strict', '--env', 'MCP_FAULTS=bad-tool-name', FAULTY]);
    expect(r.exitCode).toBe(1);
    expect(statusOf(r.report, 'tools/names/format')).toBe('fail');
  });

  it('runs a command given after --', async () => {
    const r = await runCli([...QUICK, '--only', 'lifecycle/**', '--', process.execPath, join(REFERENCE, 'server.mjs')]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
  });

  it('names a missing target in one line and exits 2', async () => {
    const r = await runCli(['./no/such/server.js']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('no/such/server.js');
  });

  it('names a command that cannot start and exits 2', async () => {
    const r = await runCli(['--', 'mcp-no-such-command-xyz']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('mcp-no-such-command-xyz');
  });

  it('rejects an unknown option with exit 2', async () => {
    const r = await runCli(['--frobnicate', REFERENCE]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('frobnicate');
  });

  it('leaves no process behind, grandchildren included', async () => {
    const pidFile = join(await mkdtemp(join(tmpdir(), 'mcpc-pid-')), 'pid');
    // The lifecycle checks start several servers (version probes, fresh sessions); the zoo's grandchild member runs
    // the whole suite on this fault and looks for survivors too (test/e2e/zoo.test.ts).
    const r = await runCli([
      ...QUICK,
      '--only',
      'lifecycle/**',
      '--env',
      'MCP_FAULTS=grandchild',
      '--env',
      `GRANDCHILD_PID_FILE=${pidFile}`,
      FAULTY,
    ]);
    expect(r.report).toBeDefined();
    // Every server of the run left a grandchild; those that got to write their pid are listed (one a line).
    const pids = (await readFile(pidFile, 'utf8')).split('\n').filter(Boolean).map(Number);
    expect(pids.length).toBeGreaterThan(0);
    expect(pids.filter((pid) => !(pid > 0))).toEqual([]);
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('stops a server that ignores stdin close and SIGTERM', async () => {
    const r = await runCli([...only('lifecycle/shutdown/stdin-close'), '--env', 'MCP_FAULTS=ignore-sigterm', FAULTY]);
    const shutdown = r.report?.checks.find((c) => c.id === 'lifecycle/shutdown/stdin-close');
    expect(shutdown?.status).toBe('warn');
    expect(shutdown?.message).toContain('SIGKILL');
    const pid = Number(/\(pid (\d+)\)/.exec(JSON.stringify(shutdown?.transcript))?.[1]);
    expect(isAlive(pid)).toBe(false);
  });
});

describe.concurrent('real servers from npm', () => {
  it('completes on server-everything over stdio and writes both reports', async () => {
    const r = await runCli(['--', bin('mcp-server-everything'), 'stdio']);
    expect([0, 1]).toContain(r.exitCode);
    expect(r.report?.server?.name).toBeTruthy();
    expect(r.report?.summary.error).toBe(0);
    // Documented behaviour: it serves tools, resources and prompts, answers ping and negotiates 2025-11-25.
    expect(statusOf(r.report, 'ping/respond')).toBe('pass');
    expect(statusOf(r.report, 'lifecycle/initialize/result')).toBe('pass');
    expect(r.report?.server?.counts?.tools).toBeGreaterThan(0);
    await expect(readFile(join(r.out, 'junit.xml'), 'utf8')).resolves.toContain('<testsuites');
  });

  it('completes on server-filesystem over stdio', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpc-fs-'));
    const r = await runCli(['--', bin('mcp-server-filesystem'), dir]);
    expect([0, 1]).toContain(r.exitCode);
    expect(r.report?.summary.error).toBe(0);
    expect(statusOf(r.report, 'ping/respond')).toBe('pass');
    expect(r.report?.server?.counts?.tools).toBeGreaterThan(0);
  });
});
