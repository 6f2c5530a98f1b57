import { describe, expect, it } from 'vitest';
import { nearestIds } from '../../src/suite/glob.js';
import { loadSuite } from '../../src/suite/suite.js';
import { REFERENCE, runCli } from '../helpers.js';

describe('a selection of checks', () => {
  it('names the nearest ids of a glob that matches none', () => {
    const ids = [
      'cancellation/http/stream-close',
      'cancellation/stdio/ignored',
      'tools/call/unknown-tool',
      'tools/list/pagination',
    ];
    // `*` does not cross `/`: the same glob with `**` is the answer.
    expect(nearestIds('cancellation/*', ids)).toEqual(['cancellation/**']);
    expect(nearestIds('tool/call/unknown-tol', ids)[0]).toBe('tools/call/unknown-tool');
    expect(nearestIds('tols/**', ids)[0]).toBe('tools/**');
  });

  it('that matches no check is an error naming the glob, in the suite as in the run', async () => {
    await expect(loadSuite({ skip: ['tools/call/unknown-tol'] })).rejects.toThrow(
      /^--skip tools\/call\/unknown-tol matches no check; nearest: tools\/call\/unknown-tool, /,
    );
    await expect(loadSuite({ only: ['tools/**'], skip: ['tools/call/unknown-tool'] })).resolves.toBeDefined();
  });

  it.concurrent("typo'd on the command line exits 2 with one line, before any server starts", async () => {
    const r = await runCli(['--only', 'cancellation/*', REFERENCE]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      'mcp-conformance: --only cancellation/* matches no check (`*` stays within one segment of an id and does not cross `/`; `**` does); nearest: cancellation/**',
    ]);
    expect(r.report).toBeUndefined();
  });

  it.concurrent('that leaves no check applicable says so in the verdict line and exits 2, or 0 with --allow-empty', async () => {
    // The stateless wire's _meta checks do not apply to a run of the initialize wire: each is skipped.
    const args = ['--revision', '2025-11-25', '--only', 'stateless/meta/**', REFERENCE];
    const empty = await runCli(args);
    expect(empty.report?.checks.length).toBeGreaterThan(0);
    expect(empty.report?.checks.every((c) => c.status === 'skip')).toBe(true);
    expect(empty.exitCode).toBe(2);
    expect(empty.stdout).toMatch(
      /^EMPTY nothing tested: every check was skipped \(exit 2; --allow-empty accepts such a run\)/m,
    );
    const allowed = await runCli(['--allow-empty', ...args]);
    expect(allowed.exitCode).toBe(0);
    expect(allowed.stdout).toContain('EMPTY nothing tested: every check was skipped (allowed by --allow-empty)');
  });
});
