import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import type { Matrix } from '../../src/schema/generated/matrix.js';
import type { Report } from '../../src/schema/generated/report.js';
import { CLI, FAULTY, REFERENCE } from '../helpers.js';

/** A process whose command line holds `marker`, still running. */
function running(marker: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .flatMap((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(marker) ? [Number(p)] : [];
      } catch {
        return [];
      }
    });
}

/** Times vary from run to run; everything else in matrix.json must not. */
const withoutTimes = (m: Matrix) =>
  JSON.parse(JSON.stringify(m, (k, v: unknown) => (k === 'durationMs' ? undefined : v))) as Matrix;

const cli = (args: string[]) =>
  execa(process.execPath, [CLI, ...args], {
    reject: false,
    env: { NO_COLOR: '1', GITHUB_ACTIONS: '' },
    timeout: 170_000,
  });

describe('mcp-conformance matrix', () => {
  it('runs every server into its own folder and one matrix: a broken server differs, one that cannot start or hangs appears as such, nothing is left running; report --matrix rebuilds the same matrix.json', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-matrix-e2e-'));
    const marker = `matrix-hang-${process.pid}-${Date.now()}`;
    await writeFile(
      join(dir, 'servers.yaml'),
      [
        'servers:',
        `  - { name: reference, target: ${JSON.stringify(REFERENCE)}, labels: { implementation: reference } }`,
        `  - { name: reference-again, target: ${JSON.stringify(REFERENCE)} }`,
        `  - { name: banner, command: [node, ${JSON.stringify(FAULTY)}], env: { MCP_FAULTS: banner } }`,
        '  - { name: cannot-start, command: [./no-such-server] }',
        `  - { name: hangs, command: [node, -e, "setInterval(() => {}, 1000) // ${marker}"], budget: 3 }`,
      ].join('\n'),
    );
    const out = join(dir, 'out');
    try {
      const r = await cli([
        'matrix',
        join(dir, 'servers.yaml'),
        '--out',
        out,
        '--jobs',
        '2',
        '--seed',
        '1',
        '--runs',
        '10',
      ]);
      expect(r.exitCode, r.stdout + r.stderr).toBe(1);
      // Into a pipe: one line per server and the files, no live lines.
      expect(String(r.stdout)).not.toContain('\x1b[');
      expect(String(r.stdout)).toMatch(/^banner\s+FAIL\s/m);
      const matrix = JSON.parse(await readFile(join(out, 'matrix.json'), 'utf8')) as Matrix;
      expect(matrix.servers.map((s) => [s.name, s.verdict])).toEqual([
        ['reference', 'pass'],
        ['reference-again', 'pass'],
        ['banner', 'fail'],
        ['cannot-start', 'no-report'],
        ['hangs', 'error'],
      ]);
      const [, , banner, cannotStart, hangs] = matrix.servers;
      expect(banner.exitCode).toBe(1);
      expect(cannotStart.reason).toMatch(/no-such-server/);
      // The budget ends the run (its own --budget, or the matrix's SIGTERM, then SIGKILL 10 s later at the latest):
      // stopped while it still waits for the silent server's first answer, it reports the handshake as an error.
      expect(hangs.durationMs).toBeLessThan(3000 + 10_000 + 5000);
      const hung = JSON.parse(await readFile(join(out, hangs.folder, 'report.json'), 'utf8')) as Report;
      expect(hung.checks.find((c) => c.id === 'lifecycle/initialize/result')).toMatchObject({
        status: 'error',
        message: expect.stringMatching(
          /^the run (budget \(--budget\) was spent|was interrupted) before initialize completed; no check ran$/,
        ),
      });
      expect(running(marker)).toEqual([]);
      const row = matrix.rows.find((r) => r.id === 'transport/stdio/stdout-only-messages')!;
      expect(row.majority).toBe('pass');
      const column = matrix.columns.findIndex((c) => matrix.servers[c.server].name === 'banner');
      expect(row.cells[column]).toMatchObject({ status: 'fail', differs: true, requirement: { level: 'MUST' } });
      expect(matrix.columns[column].differs).toBeGreaterThanOrEqual(1);
      for (const s of ['reference', 'banner'])
        expect(readdirSync(join(out, s))).toEqual(
          expect.arrayContaining(['report.json', 'index.html', 'junit.xml', 'matrix-run.json']),
        );

      // The same folders merged, as a CI job matrix would: the same matrix.json but for times.
      await rm(join(out, 'matrix.json'));
      const merged = await cli(['report', '--matrix', ...matrix.servers.map((s) => join(out, s.folder)), '--out', out]);
      expect(merged.exitCode, merged.stderr).toBe(1);
      const again = JSON.parse(await readFile(join(out, 'matrix.json'), 'utf8')) as Matrix;
      expect(withoutTimes(again)).toEqual(withoutTimes(matrix));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it('refuses a bad servers file, an unknown server and a folder without reports, in one line each', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-matrix-bad-'));
    try {
      await writeFile(join(dir, 'a.yaml'), 'servers:\n  - name: x\n    comand: [node]\n');
      let r = await cli(['matrix', join(dir, 'a.yaml'), '--out', join(dir, 'o')]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/a\.yaml:3:5: servers\[0\]\.comand: unknown key/);
      await writeFile(join(dir, 'b.yaml'), 'servers:\n  - { name: x, command: [node] }\n  - { name: x, target: y }\n');
      r = await cli(['matrix', join(dir, 'b.yaml'), '--out', join(dir, 'o')]);
      expect(r.stderr).toMatch(/names another server already/);
      await writeFile(join(dir, 'c.yaml'), 'servers:\n  - { name: x, command: [node] }\n');
      r = await cli(['matrix', join(dir, 'c.yaml'), '--server', 'nope', '--out', join(dir, 'o')]);
      expect(r.stderr).toMatch(/--server nope: no such server/);
      r = await cli(['report', '--matrix', dir, '--out', join(dir, 'o')]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/no report\.json here/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
