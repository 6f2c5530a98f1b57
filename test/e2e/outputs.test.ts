import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/schema/generated/report.js';
import { LIMITS, ZOO_SERVER } from '../fixtures/servers/zoo/zoo.mjs';
import { CLI, REFERENCE } from '../helpers.js';

const SERVER = join(REFERENCE, 'server.mjs');
// Far above what a healthy exit takes on a loaded machine, far below a hang.
const NO_HANG_MS = 40_000;

// No SIGKILL of execa's own 5 s after a test's signal: how the tool stops is what those tests look at.
const cli = (args: string[], env: Record<string, string> = {}) =>
  execa(process.execPath, [CLI, ...args], {
    reject: false,
    env: { GITHUB_ACTIONS: '', NO_COLOR: '1', ...env },
    timeout: NO_HANG_MS,
    killSignal: 'SIGKILL',
    forceKillAfterDelay: false,
  });

/** A server command that first leaves a file behind, so a test can tell whether any server started. */
async function markingServer(): Promise<{ marker: string; command: string[] }> {
  const marker = join(await mkdtemp(join(tmpdir(), 'mcpc-mark-')), 'started');
  return { marker, command: ['--', 'sh', '-c', `touch '${marker}' && exec '${process.execPath}' '${SERVER}'`] };
}

describe.concurrent('the paths the run writes', () => {
  for (const [name, out] of [
    ['under /proc, where creating a folder fails', '/proc/nope/reports'],
    ['an existing file', 'FILE'],
  ] as const) {
    it(`--out naming ${name}: exit 2 with one line naming the folder and the reason, before any server starts`, async () => {
      const dir = await mkdtemp(join(tmpdir(), 'mcpc-'));
      const path = out === 'FILE' ? join(dir, 'a-file') : out;
      if (out === 'FILE') await writeFile(path, 'not a folder');
      const { marker, command } = await markingServer();
      const r = await cli(['--out', path, ...command]);
      expect(r.timedOut).toBe(false);
      expect(r.exitCode).toBe(2);
      expect(String(r.stderr).trim().split('\n')).toEqual([
        expect.stringMatching(
          new RegExp(
            `^mcp-conformance: --out ${path}: cannot write reports into this folder \\((ENOENT|ENOTDIR): .+\\)$`,
          ),
        ),
      ]);
      expect(existsSync(marker)).toBe(false);
    });
  }

  it('a GitHub step summary that cannot be written: exit 2 naming it, before any server starts', async () => {
    const { marker, command } = await markingServer();
    const out = await mkdtemp(join(tmpdir(), 'mcpc-'));
    const r = await cli(['--out', out, ...command], {
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: '/proc/nope/summary.md',
    });
    expect([r.exitCode, String(r.stderr).trim()]).toEqual([
      2,
      'mcp-conformance: GITHUB_STEP_SUMMARY /proc/nope/summary.md: cannot append to this file (ENOENT: no such file or directory)',
    ]);
    expect(existsSync(marker)).toBe(false);
  });

  it('the report command checks its --out before it reads anything', async () => {
    const r = await cli(['report', '--out', '/proc/nope/reports', 'no-such-report.json']);
    expect([r.exitCode, String(r.stderr).trim()]).toEqual([
      2,
      'mcp-conformance: --out /proc/nope/reports: cannot write reports into this folder (ENOENT: no such file or directory)',
    ]);
  });

  it('a folder that turns unwritable mid-run: SIGTERM ends the run, the reports fail in one line, and the tool exits soon', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpc-'));
    const real = join(dir, 'real');
    await mkdir(real);
    const out = join(dir, 'reports');
    await symlink(real, out);
    const started = join(dir, 'started');
    // The server points the report folder into /proc as it starts, after the tool checked the folder, and then hangs.
    const server = `ln -sfn /proc/nope/reports '${out}' && touch '${started}' && exec '${process.execPath}' '${ZOO_SERVER}'`;
    const run = cli(['--out', out, ...LIMITS, '--env', 'ZOO_MODE=hang-ping', '--', 'sh', '-c', server]);
    for (let i = 0; i < 200 && !existsSync(started); i++) await sleep(50);
    await sleep(500);
    const t0 = performance.now();
    run.kill('SIGTERM');
    const r = await run;
    expect(r.timedOut).toBe(false);
    // A bound a hang would exceed: stopping the servers (their grace periods included) and failing the writes take
    // well under it, even on a loaded machine (as in the zoo's signal tests).
    expect(performance.now() - t0).toBeLessThan(15_000);
    expect(r.exitCode, String(r.stderr)).toBe(2);
    expect(String(r.stderr)).toMatch(
      new RegExp(
        `^mcp-conformance: ${out}: cannot write reports into this folder \\(ENOENT: no such file or directory\\)$`,
      ),
    );
  });

  it("a second signal exits at once with 143, even while the first one's reports are being written", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpc-'));
    const started = join(dir, 'started');
    const server = `touch '${started}' && exec '${process.execPath}' '${ZOO_SERVER}'`;
    const run = cli([
      '--out',
      join(dir, 'reports'),
      ...LIMITS,
      '--env',
      'ZOO_MODE=hang-ping',
      '--',
      'sh',
      '-c',
      server,
    ]);
    for (let i = 0; i < 200 && !existsSync(started); i++) await sleep(50);
    await sleep(500);
    run.kill('SIGTERM');
    await sleep(50);
    const t0 = performance.now();
    run.kill('SIGTERM');
    const r = await run;
    expect(r.timedOut).toBe(false);
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(r.exitCode).toBe(143);
  });

  it("two runs with the same --out at once both finish, and the folder holds one run's complete reports", async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'mcpc-')), 'reports');
    const args = ['--out', out, '--only', 'ping/**', '--only', 'lifecycle/**', REFERENCE];
    const [a, b] = await Promise.all([cli(args), cli(args)]);
    expect([a.exitCode, b.exitCode], String(a.stderr) + String(b.stderr)).toEqual([0, 0]);
    expect((await readdir(out)).sort()).toEqual([
      'badge.json',
      'badge.svg',
      'index.html',
      'junit.xml',
      'report.json',
      'report.sarif',
    ]);
    const { runId } = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
    expect(runId).toMatch(/^[\w-]{36}$/);
    expect(await readFile(join(out, 'junit.xml'), 'utf8')).toContain(`name="mcp-conformance.run-id" value="${runId}"`);
    expect(await readFile(join(out, 'index.html'), 'utf8')).toContain(`content="${runId}"`);
    expect(await readFile(join(out, 'badge.svg'), 'utf8')).toContain(`run ${runId}`);
    expect(await readFile(join(out, 'report.sarif'), 'utf8')).toContain(`"id": "mcp-conformance/${runId}"`);
  });
});
