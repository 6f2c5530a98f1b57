// The server starts told beside the critical path: how many, and one line per process (--verbose).
import { describe, expect, it } from 'vitest';
import { serverLines, startsCount } from '../src/report/starts.js';
import type { Report } from '../src/schema/generated/report.js';

const report = (processes: Report['processes']) => ({ processes }) as Report;

describe('server starts', () => {
  it('counts the listed processes, else the count, and none when the run started none', () => {
    expect(startsCount(report(undefined))).toBeUndefined();
    expect(startsCount(report({ started: 0, mostAlive: 0 }))).toBeUndefined();
    expect(startsCount(report({ started: 1, mostAlive: 1 }))).toBe('1 server start');
    // One revision of several: processes.started counts the run beside it too; the list is its own.
    const servers = [{ for: 'shared session', checks: [] }];
    expect(startsCount(report({ started: 9, mostAlive: 4, servers }))).toBe('1 server start');
  });

  it('tells each process: its revision when they differ, why, and the first few checks', () => {
    const checks = ['a/b/c', 'a/b/d', 'a/b/e', 'a/b/f', 'a/b/g'];
    const lines = serverLines(
      report({
        started: 3,
        mostAlive: 2,
        servers: [
          { for: 'auto probe', checks: [], revision: '2025-11-25' },
          { for: 'shared session', checks, revision: '2025-11-25' },
          { for: 'second connection', checks: ['x/y/z'], revision: '2026-07-28' },
        ],
      }),
    );
    expect(lines).toEqual([
      '2025-11-25 auto probe',
      '2025-11-25 shared session: a/b/c, a/b/d, a/b/e, +2 more',
      '2026-07-28 second connection: x/y/z',
    ]);
    expect(
      serverLines(
        report({ started: 1, mostAlive: 1, servers: [{ for: 'shared session', checks: ['p/q/r'], revision: 'r' }] }),
      ),
    ).toEqual(['shared session: p/q/r']);
  });
});
