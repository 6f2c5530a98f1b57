import { describe, expect, it } from 'vitest';
import { baselineAdvice } from '../src/baseline/advice.js';
import { applyBaseline, loadBaseline } from '../src/baseline/baseline.js';
import { failsTheRun, isExpectedFailure, isStale } from '../src/baseline/status.js';
import { ConfigError } from '../src/config/yaml-file.js';
import { verdict } from '../src/report/summary.js';
import type { CheckResult, Status } from '../src/schema/generated/report.js';
import { tempFile } from './helpers.js';

const file = (text: string, name = 'expected-failures.yaml') => tempFile(text, name);

function check(id: string, status: Status): CheckResult {
  const requirement = { id: 'x.y', level: 'MUST' as const, spec: 'https://example.com/#x', text: 'x' };
  return { id, title: id, area: id.split('/')[0], status, level: 'MUST', requirement, message: `${id} ${status}`, durationMs: 1 };
}

describe('loading an expected-failures file', () => {
  it('reads entries with their lines, ids and globs', async () => {
    const b = await loadBaseline(await file('# known\n- id: tools/names/format\n  reason: dots in our names\n- id: resources/**\n  reason: not built yet\n'));
    expect(b.shape).toBe('list');
    expect(b.entries.map((e) => [e.pattern, e.reason, e.first, e.last])).toEqual([
      ['tools/names/format', 'dots in our names', 2, 3],
      ['resources/**', 'not built yet', 4, 5],
    ]);
    expect(b.entries[1].matches('resources/read/unknown-uri')).toBe(true);
    expect(b.entries[1].matches('tools/names/format')).toBe(false);
  });

  it("accepts the official suite's shape, server: [ids], and ignores client:", async () => {
    const b = await loadBaseline(await file('server:\n  - ping/respond\n  - tools-call-with-progress\nclient:\n  - sse-retry\n'));
    expect(b.shape).toBe('server');
    expect(b.entries.map((e) => [e.pattern, e.reason, e.first])).toEqual([
      ['ping/respond', undefined, 2],
      ['tools-call-with-progress', undefined, 3],
    ]);
  });

  for (const [what, text, message] of [
    ['a missing reason', '- id: ping/respond\n', ':1:3: [0]: needs a reason'],
    ['an empty reason', '- id: ping/respond\n  reason: ""\n', ':2:11: [0].reason: needs a reason'],
    ['an unknown key', '- id: ping/respond\n  reason: x\n  why: y\n', ':3:8: [0].why: unknown key'],
    ['a bad id', '- id: Ping Respond\n  reason: x\n', ':1:7: [0].id: must be a check id or glob'],
    ['a duplicate', '- id: ping/respond\n  reason: x\n- id: ping/respond\n  reason: y\n', ':3:7: [1].id: ping/respond is already listed at line 1'],
    ['a mapping of another shape', 'checks: [a]\n', ':1:1: (file): must be a list of {id, reason} entries'],
    ['server: that is no list', 'server: ping/respond\n', ':1:9: server: must be a list of check ids'],
    ['invalid YAML', '- id: [a\n', ':2:1:'],
    ['an alias bomb', `a: &a [x, x, x, x, x, x, x, x, x, x]\n${Array.from({ length: 12 }, (_, i) => `l${i}: [${'*a, '.repeat(10)}*a]`).join('\n')}\n`, 'aliases'],
  ]) {
    it(`names file, line and field for ${what}`, async () => {
      const path = await file(text);
      const err = await loadBaseline(path).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain(message);
      expect((err as Error).message).toContain('expected-failures.yaml');
      expect((err as Error).message.split('\n')).toHaveLength(1);
    });
  }
});

describe('applying a baseline', () => {
  it('marks listed checks; an expected failure passes the run, a stale entry fails it', async () => {
    const b = await loadBaseline(await file('- id: a/fails\n  reason: known\n- id: b/**\n  reason: area\n'));
    const checks = applyBaseline([check('a/fails', 'fail'), check('b/one', 'pass'), check('b/two', 'warn'), check('c/free', 'pass')], b);
    expect(checks.map((c) => c.baseline?.entry)).toEqual(['a/fails', 'b/**', 'b/**', undefined]);
    expect(checks.map(isExpectedFailure)).toEqual([true, false, true, false]);
    expect(checks.map(isStale)).toEqual([false, true, false, false]);
    expect(checks.map(failsTheRun)).toEqual([false, true, false, false]);
    expect(verdict({ checks: [checks[0], checks[3]] })).toBe('pass');
    expect(verdict({ checks })).toBe('fail');
  });

  it('prefers the entry naming a check exactly over a glob', async () => {
    const b = await loadBaseline(await file('- id: a/**\n  reason: area\n- id: a/x\n  reason: exact\n'));
    expect(applyBaseline([check('a/x', 'fail')], b)[0].baseline).toEqual({ entry: 'a/x', reason: 'exact' });
  });

  it('prints the exact lines to remove and to add, in the file’s shape', async () => {
    const path = await file('- id: a/fails\n  reason: known\n- id: b/**\n  reason: area\n- id: gone/away\n  reason: old\n');
    const b = await loadBaseline(path);
    const checks = applyBaseline([check('a/fails', 'fail'), check('b/one', 'pass'), check('b/two', 'fail'), check('c/new', 'fail')], b);
    const advice = baselineAdvice({ checks }, b, false);
    expect(advice).toContain('2 expected, 1 stale, 1 unexpected');
    expect(advice).toContain('b/** is stale (b/one passes now); replace lines 3-4:\n- id: b/**\n  reason: area\nwith:\n- id: b/two\n  reason: "area"\n');
    expect(advice).toContain('gone/away matches no check in this run (renamed or removed?); remove lines 5-6:\n- id: gone/away\n  reason: old\n');
    expect(advice).toContain('1 failure(s) not in');
    expect(advice).toContain('add:\n- id: c/new\n  reason: "c/new fail"\n');
    // A shard sees only some checks: an entry that matches none of them may match another shard's.
    expect(baselineAdvice({ checks }, b, true)).not.toContain('gone/away');

    const official = await loadBaseline(await file('server: [a/fails, b/one]\n'));
    const advice2 = baselineAdvice({ checks: applyBaseline([check('a/fails', 'fail'), check('b/one', 'pass'), check('c/new', 'fail')], official) }, official, false);
    expect(advice2).toContain('b/one is stale (b/one passes now); remove b/one from line 1:\nserver: [a/fails, b/one]\n');
    expect(advice2).toContain('add under server:\n  - c/new\n');
  });
});
