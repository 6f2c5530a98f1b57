import { describe, expect, it } from 'vitest';
import { LiveLines, areaText, progressSink, progressText } from '../src/cli/progress-line.js';
import { type Progress, progressTracker } from '../src/run/progress.js';
import type { CheckResult } from '../src/schema/generated/report.js';

const result = (id: string, status: CheckResult['status']) => ({ id, status }) as CheckResult;

/** A stream that records what is written; a terminal when `tty`. */
function stream(tty: boolean) {
  const written: string[] = [];
  return {
    written,
    s: { isTTY: tty, columns: 60, write: (t: string) => written.push(t) > 0 } as unknown as NodeJS.WriteStream,
  };
}

describe('progress', () => {
  it('counts checks as they end: done, failures, the check running longest, and each area as its last check ends', async () => {
    const seen: Progress[] = [];
    const t = progressTracker(['tools/a', 'tools/b', 'base/c'], (p) => seen.push(p));
    let end!: (r: CheckResult) => void;
    const slow = t.track('tools/a', new Promise((r) => (end = r)));
    await t.track('base/c', Promise.resolve(result('base/c', 'fail')));
    expect(seen.at(-1)).toMatchObject({
      done: 1,
      total: 3,
      current: 'tools/a',
      failures: 1,
      areaDone: { area: 'base', statuses: ['fail'] },
    });
    await t.track('tools/b', Promise.resolve(result('tools/b', 'pass')));
    expect(seen.at(-1)?.areaDone).toBeUndefined();
    end(result('tools/a', 'warn'));
    await slow;
    expect(seen.at(-1)).toMatchObject({
      done: 3,
      failures: 1,
      current: undefined,
      areaDone: { area: 'tools', statuses: ['pass', 'warn'] },
    });
    expect(progressText(seen.at(-1)!, 4200)).toBe('3/3 checks · 4 s · 1 failed');
    expect(areaText({ area: 'tools', statuses: ['pass', 'warn'] })).toMatch(/^tools\s+2 checks: 1 pass, 1 warn\n$/);
  });

  it('without a terminal gives a run no progress callback, so it prints nothing extra (--verbose: the areas)', () => {
    const quiet = stream(false);
    expect(progressSink(quiet.s, false).onProgress).toBeUndefined();
    const verbose = stream(false);
    progressSink(verbose.s, true).onProgress!({
      done: 1,
      total: 2,
      failures: 0,
      areaDone: { area: 'base', statuses: ['pass'] },
    });
    expect(verbose.written).toEqual([areaText({ area: 'base', statuses: ['pass'] })]);
  });

  it('draws live lines in place, makes server strings visible, and erases them when stopped', () => {
    const tty = stream(true);
    let lines = ['one', 'two \x1b[31m'];
    const live = new LiveLines(tty.s, () => lines);
    live.changed();
    expect(tty.written).toEqual(['one\ntwo \\x1b[31m']);
    lines = ['three'];
    live.print('kept\n');
    expect(tty.written.slice(1)).toEqual(['\r\x1b[2K\x1b[1A\r\x1b[2K', 'kept\n', 'three']);
    live.stop();
    expect(tty.written.at(-1)).toBe('\r\x1b[2K');
  });
});
