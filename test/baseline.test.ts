import { describe, expect, it } from 'vitest';
import { baselineAdvice } from '../src/baseline/advice.js';
import { applyBaseline, loadBaseline, type RunContext } from '../src/baseline/baseline.js';
import { updateBaseline } from '../src/baseline/update.js';
import { failsDifferently, failsTheRun, isExpectedFailure, isStale } from '../src/baseline/status.js';
import { ConfigError } from '../src/config/yaml-file.js';
import { verdict } from '../src/report/summary.js';
import type { CheckResult, Status } from '../src/schema/generated/report.js';
import { tempFile } from './helpers.js';

const file = (text: string, name = 'expected-failures.yaml') => tempFile(text, name);

function check(id: string, status: Status, message = `${id} ${status}`): CheckResult {
  const requirement = { id: 'x.y', level: 'MUST' as const, spec: 'https://example.com/#x', text: 'x' };
  return { id, title: id, area: id.split('/')[0], status, level: 'MUST', requirement, message, durationMs: 1 };
}

const RUN: RunContext = { revision: '2025-11-25', transport: 'stdio' };

describe('loading an expected-failures file', () => {
  it('reads entries with their lines, ids and globs', async () => {
    const b = await loadBaseline(
      await file(
        '# known\n- id: tools/names/format\n  reason: dots in our names\n- id: resources/**\n  reason: not built yet\n',
      ),
    );
    expect(b.shape).toBe('list');
    expect(b.entries.map((e) => [e.pattern, e.reason, e.first, e.last])).toEqual([
      ['tools/names/format', 'dots in our names', 2, 3],
      ['resources/**', 'not built yet', 4, 5],
    ]);
    expect(b.entries[1].matches('resources/read/unknown-uri')).toBe(true);
    expect(b.entries[1].matches('tools/names/format')).toBe(false);
  });

  it("accepts the official suite's shape, server: [ids], and ignores client:", async () => {
    const b = await loadBaseline(
      await file('server:\n  - ping/respond\n  - tools-call-with-progress\nclient:\n  - sse-retry\n'),
    );
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
    [
      'a duplicate',
      '- id: ping/respond\n  reason: x\n- id: ping/respond\n  reason: y\n',
      ':3:7: [1].id: ping/respond is already listed at line 1',
    ],
    [
      'a duplicate for the same runs',
      '- id: a/b\n  reason: x\n  on: stdio\n- id: a/b\n  reason: y\n  on: [stdio]\n',
      ':4:7: [1].id: a/b is already listed for stdio at line 1',
    ],
    [
      'an unknown run',
      '- id: a/b\n  reason: x\n  on: [2025-11-25, 2024-01-01]\n',
      ':3:20: [0].on[1]: must be a revision',
    ],
    [
      'a transport before the revision',
      '- id: a/b\n  reason: x\n  on: stdio/2025-11-25\n',
      '[0].on: must be a revision',
    ],
    ['a bad message pattern', '- id: a/b\n  reason: x\n  message: /(/\n', '[0].message: not a valid pattern'],
    ['a mapping of another shape', 'checks: [a]\n', ':1:1: (file): must be a list of {id, reason} entries'],
    ['server: that is no list', 'server: ping/respond\n', ':1:9: server: must be a list of check ids'],
    ['invalid YAML', '- id: [a\n', ':2:1:'],
    [
      'an alias bomb',
      `a: &a [x, x, x, x, x, x, x, x, x, x]\n${Array.from({ length: 12 }, (_, i) => `l${i}: [${'*a, '.repeat(10)}*a]`).join('\n')}\n`,
      'aliases',
    ],
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
    const checks = applyBaseline(
      [check('a/fails', 'fail'), check('b/one', 'pass'), check('b/two', 'warn'), check('c/free', 'pass')],
      b,
      RUN,
    );
    expect(checks.map((c) => c.baseline?.entry)).toEqual(['a/fails', 'b/**', 'b/**', undefined]);
    expect(checks.map(isExpectedFailure)).toEqual([true, false, true, false]);
    expect(checks.map(isStale)).toEqual([false, true, false, false]);
    expect(checks.map(failsTheRun)).toEqual([false, true, false, false]);
    expect(verdict({ checks: [checks[0], checks[3]] })).toBe('pass');
    expect(verdict({ checks })).toBe('fail');
  });

  it('prefers the entry naming a check exactly over a glob', async () => {
    const b = await loadBaseline(await file('- id: a/**\n  reason: area\n- id: a/x\n  reason: exact\n'));
    expect(applyBaseline([check('a/x', 'fail')], b, RUN)[0].baseline).toEqual({ entry: 'a/x', reason: 'exact' });
  });

  it('applies an entry only to the runs it names (on: revision, transport or REVISION/TRANSPORT)', async () => {
    const b = await loadBaseline(
      await file(
        '- id: a/x\n  reason: old era\n  on: 2025-06-18\n- id: a/y\n  reason: over HTTP\n  on: [2025-11-25/http, sse]\n- id: a/z\n  reason: stdio\n  on: stdio\n',
      ),
    );
    const checks = [check('a/x', 'fail'), check('a/y', 'fail'), check('a/z', 'fail')];
    expect(applyBaseline(checks, b, RUN).map((c) => c.baseline?.entry)).toEqual([undefined, undefined, 'a/z']);
    expect(
      applyBaseline(checks, b, { revision: '2025-06-18', transport: 'http' }).map((c) => c.baseline?.entry),
    ).toEqual(['a/x', undefined, undefined]);
    expect(
      applyBaseline(checks, b, { revision: '2025-11-25', transport: 'http' }).map((c) => c.baseline?.entry),
    ).toEqual([undefined, 'a/y', undefined]);
    expect(
      applyBaseline(checks, b, { revision: '2025-03-26', transport: 'sse' }).map((c) => c.baseline?.entry),
    ).toEqual([undefined, 'a/y', undefined]);
  });

  it('excuses a failure only with the message its entry expects (substring or /pattern/)', async () => {
    const b = await loadBaseline(
      await file(
        '- id: a/sub\n  reason: r\n  message: "-32603"\n- id: a/re\n  reason: r\n  message: /^an unknown method → -3260[0-9]/i\n',
      ),
    );
    const [sameSub, sameRe] = applyBaseline(
      [
        check('a/sub', 'fail', 'an unknown method → -32603, expected -32601'),
        check('a/re', 'fail', 'An Unknown Method → -32602'),
      ],
      b,
      RUN,
    );
    expect([sameSub, sameRe].map(isExpectedFailure)).toEqual([true, true]);
    expect(verdict({ checks: [sameSub, sameRe] })).toBe('pass');
    const [otherSub, otherRe] = applyBaseline(
      [check('a/sub', 'fail', 'no answer within 1 s'), check('a/re', 'fail', 'the server exited')],
      b,
      RUN,
    );
    expect([otherSub, otherRe].map(failsDifferently)).toEqual([true, true]);
    expect([otherSub, otherRe].map(failsTheRun)).toEqual([true, true]);
    expect(otherSub.baseline).toEqual({ entry: 'a/sub', reason: 'r', message: '-32603', messageDiffers: true });
    expect(verdict({ checks: [otherSub] })).toBe('fail');
    // Both messages side by side, in the advice and in the triad every report shows.
    const advice = baselineAdvice({ checks: [otherSub] }, b, false);
    expect(advice).toContain('0 expected, 0 stale, 0 unexpected, 1 failing for another reason');
    expect(advice).toContain(
      "a/sub fails for another reason than a/sub expects: fix it, or change the entry's message:\n  expected  -32603\n  actual    no answer within 1 s",
    );
  });

  it('is written again from a run: reasons kept, stale entries gone, new failures added with their message and runs', async () => {
    const b = await loadBaseline(
      await file(
        '# ours\n- id: a/kept\n  reason: known since 1.0\n- id: b/**\n  reason: area\n  message: boom\n- id: c/stale\n  reason: fixed since\n',
      ),
    );
    const runs = [RUN, { revision: '2026-07-28', transport: 'stdio' as const }].map((run, i) => ({
      run,
      checks: applyBaseline(
        [
          check('a/kept', 'fail'),
          check('b/one', 'fail', 'bang: another reason'),
          check('c/stale', 'pass'),
          check('d/new', i === 0 ? 'fail' : 'pass', 'd/new → "x"\nmore'),
          check('e/warn', 'warn'),
        ],
        b,
        run,
      ),
    }));
    const updated = updateBaseline(b, runs);
    expect(updated).toMatchObject({ kept: 2, added: 1, removed: 1 });
    expect(updated.text).toBe(
      '# ours\n- id: a/kept\n  reason: "known since 1.0"\n- id: b/**\n  reason: "area"\n  message: "bang: another reason"\n- id: d/new\n  reason: "d/new → \\"x\\""\n  on: 2025-11-25\n  message: "d/new → \\"x\\""\n',
    );
    // What it writes is a baseline that excuses exactly these failures.
    const again = await loadBaseline(await file(updated.text));
    for (const { run, checks } of runs)
      expect(
        verdict({
          checks: applyBaseline(
            checks.map(({ baseline: _, ...c }) => c),
            again,
            run,
          ),
        }),
      ).toBe('pass');
    expect(updateBaseline(undefined, runs.slice(0, 1)).text).toContain(
      '- id: d/new\n  reason: "d/new → \\"x\\""\n  message:',
    );
    // The official suite's shape stays that shape: ids only.
    const official = await loadBaseline(await file('server: [a/kept, c/stale]\n'));
    const officialRuns = [
      {
        run: RUN,
        checks: applyBaseline(
          [check('a/kept', 'fail'), check('c/stale', 'pass'), check('d/new', 'fail')],
          official,
          RUN,
        ),
      },
    ];
    expect(updateBaseline(official, officialRuns)).toMatchObject({
      text: 'server:\n  - a/kept\n  - d/new\n',
      kept: 1,
      added: 1,
      removed: 1,
    });
  });

  it('prints the exact lines to remove and to add, in the file’s shape', async () => {
    const path = await file(
      '- id: a/fails\n  reason: known\n- id: b/**\n  reason: area\n- id: gone/away\n  reason: old\n',
    );
    const b = await loadBaseline(path);
    const checks = applyBaseline(
      [check('a/fails', 'fail'), check('b/one', 'pass'), check('b/two', 'fail'), check('c/new', 'fail')],
      b,
      RUN,
    );
    const advice = baselineAdvice({ checks }, b, false);
    expect(advice).toContain('2 expected, 1 stale, 1 unexpected, 0 failing for another reason');
    expect(advice).toContain(
      'b/** is stale (b/one passes now); replace lines 3-4:\n- id: b/**\n  reason: area\nwith:\n- id: b/two\n  reason: "area"\n',
    );
    expect(advice).toContain(
      'gone/away matches no check in this run (renamed or removed?); remove lines 5-6:\n- id: gone/away\n  reason: old\n',
    );
    expect(advice).toContain('1 failure(s) not in');
    expect(advice).toContain('add:\n- id: c/new\n  reason: "c/new fail"\n');
    // A shard sees only some checks: an entry that matches none of them may match another shard's.
    expect(baselineAdvice({ checks }, b, true)).not.toContain('gone/away');

    const official = await loadBaseline(await file('server: [a/fails, b/one]\n'));
    const advice2 = baselineAdvice(
      {
        checks: applyBaseline(
          [check('a/fails', 'fail'), check('b/one', 'pass'), check('c/new', 'fail')],
          official,
          RUN,
        ),
      },
      official,
      false,
    );
    expect(advice2).toContain(
      'b/one is stale (b/one passes now); remove b/one from line 1:\nserver: [a/fails, b/one]\n',
    );
    expect(advice2).toContain('add under server:\n  - c/new\n');
  });
});
