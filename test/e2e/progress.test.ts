// The live progress line of the CLI as a process: on a pseudo-terminal, and its absence when stdout is a pipe.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { CLI, REFERENCE } from '../helpers.js';

describe('the live line of a run', () => {
  const run = ['--seed', '1', '--only', 'lifecycle/**', REFERENCE];
  const hasScript = existsSync('/usr/bin/script');

  it.skipIf(!hasScript)(
    'shows on a terminal (a pseudo-terminal), and is erased before the report',
    async () => {
      const out = await mkdtemp(join(tmpdir(), 'mcp-pty-'));
      try {
        const command = [process.execPath, CLI, '--out', out, ...run].map((a) => `'${a}'`).join(' ');
        const r = await execa('script', ['-qec', command, '/dev/null'], {
          reject: false,
          stdin: 'ignore',
          env: { NO_COLOR: '1' },
          timeout: 60_000,
        });
        const text = String(r.stdout);
        expect(r.exitCode, text).toBe(0);
        expect(text).toMatch(/\d+\/\d+ checks · [^\r]*\d+ s · 0 failed/);
        // The report comes after the last erase, with no live line in it.
        const after = text.slice(text.lastIndexOf('\r\x1b[2K') + '\r\x1b[2K'.length);
        expect(after.startsWith('mcp-conformance ')).toBe(true);
        expect(after).not.toMatch(/ checks · /);
      } finally {
        await rm(out, { recursive: true, force: true });
      }
    },
    70_000,
  );

  it('into a pipe prints the report alone, as before; with --verbose one line per area first', async () => {
    const out = await mkdtemp(join(tmpdir(), 'mcp-pipe-'));
    try {
      const plain = await execa(process.execPath, [CLI, '--out', out, ...run], {
        reject: false,
        env: { NO_COLOR: '1', GITHUB_ACTIONS: '' },
      });
      expect(plain.stdout.startsWith('mcp-conformance ')).toBe(true);
      expect(plain.stdout).not.toContain('\x1b[');
      expect(plain.stdout).not.toMatch(/ checks · /);
      const verbose = await execa(process.execPath, [CLI, '--out', out, '--verbose', ...run], {
        reject: false,
        env: { NO_COLOR: '1', GITHUB_ACTIONS: '' },
      });
      expect(verbose.stdout).toMatch(/^2025-11-25\/lifecycle\s+\d+ checks: \d+ pass/);
      expect(verbose.stdout).toContain('\nmcp-conformance ');
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  }, 70_000);
});
