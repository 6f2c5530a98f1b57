import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { CLI, FAULTY } from '../helpers.js';

/** A server file in a folder of its own: the faulty server with these faults, which an edit of the file changes. */
const serverWith = (faults: string) =>
  `process.env.MCP_FAULTS = ${JSON.stringify(faults)};\n(await import(${JSON.stringify(FAULTY)})).main();\n`;

describe('--watch', () => {
  it('runs again after an edit of the server, the checks that failed first, and prints only what changed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpc-watch-'));
    const server = join(dir, 'server.mjs');
    await writeFile(server, serverWith('method-not-found-code'));
    const out = await mkdtemp(join(tmpdir(), 'mcpc-watch-out-'));
    const args = [
      '--out',
      out,
      '--seed',
      '1',
      '--runs',
      '10',
      '--revision',
      '2025-11-25',
      '--only',
      'base/method-not-found',
      '--only',
      'ping/respond',
      '--watch',
      server,
    ];
    const cli = execa(process.execPath, [CLI, ...args], {
      reject: false,
      env: { NO_COLOR: '1', GITHUB_ACTIONS: '' },
      timeout: 120_000,
    });
    let stdout = '';
    const waiting: { text: string; resolve: () => void }[] = [];
    cli.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      for (const w of waiting.filter((w) => stdout.includes(w.text))) w.resolve();
    });
    const seen = (text: string) =>
      new Promise<void>((resolve) => (stdout.includes(text) ? resolve() : waiting.push({ text, resolve })));
    try {
      await seen(`watching    ${dir} (Ctrl-C ends)`);
      expect(stdout).toContain('FAIL  base/method-not-found');
      // The fix: the check that failed runs first on its own, then the whole run; each says only what changed.
      await writeFile(server, serverWith(''));
      await seen('the whole run:');
      await seen(' · now PASS 2 checks');
      const rerun = stdout.slice(stdout.indexOf('watching'));
      expect(rerun).toContain('server.mjs changed: running again; first the 1 check(s) that failed');
      expect(rerun).toMatch(/the checks that failed:\n\nFixed \(1\)\n {2}FAIL {2}→ PASS {3}base\/method-not-found/);
      expect(rerun).toMatch(
        /the whole run:\n\nFixed \(1\)\n[\s\S]*BETTER: 0 new failures, 1 fixed, 0 status changes, 0 added checks, 0 gone checks · now PASS 2 checks/,
      );
      expect(rerun).not.toContain('requirement base.method-not-found (MUST)'); // no whole console report again
      cli.kill('SIGINT');
      const r = await cli;
      expect(r.exitCode).toBe(130);
    } finally {
      // A test that failed on the way leaves no watching process behind.
      if (cli.exitCode === null) cli.kill('SIGINT');
    }
  });

  it('names a path that is not there, before any run', async () => {
    const r = await execa(process.execPath, [CLI, '--watch', '--watch-path', '/no/such/dir', FAULTY], {
      reject: false,
      env: { NO_COLOR: '1' },
    });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr).trim()).toBe('mcp-conformance: --watch-path /no/such/dir: no such file or folder');
  });
});
