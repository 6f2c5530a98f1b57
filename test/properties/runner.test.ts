import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CheckContext, type Outcome, fail, pass, warn } from '../../src/checks/kit/check.js';
import { type Property, checkProperty } from '../../src/checks/kit/property-runner.js';
import type { TranscriptEntry } from '../../src/schema/generated/report.js';
import { type Reply, RequestTimeout, SessionClosed } from '../../src/session/session.js';

const entry = (text: string): TranscriptEntry => ({ seq: 0, dir: 'send', t: 0, bytes: text.length, text });

/** A stand-in for the shared session: answers every request with its params; the "server" exits at a value that `dies`, and never answers one that `hangs`. */
function context(
  seed: number,
  { runs = 50, dies, hangs }: { runs?: number; dies?: (n: number) => boolean; hangs?: (n: number) => boolean } = {},
) {
  const sent: number[] = [];
  let attempts = 0;
  let dead = false;
  const ctx = {
    seed,
    runs,
    timeoutMs: 10_000,
    profile: { tools: [], resources: [], prompts: [] },
    replay: (id: string) => `mcp-conformance --seed ${seed} --only ${id} ./server`,
    stderrTail: () => 'Error: boom',
    async request(method: string, params: { n: number }): Promise<Reply> {
      attempts++;
      if (hangs?.(params.n)) throw new RequestTimeout(method, 10_000);
      if (dead || dies?.(params.n)) {
        dead = true;
        throw new SessionClosed(method, 'process exited (code 1, signal null)');
      }
      sent.push(params.n);
      return {
        message: { jsonrpc: '2.0', id: sent.length, result: params },
        sent: entry(JSON.stringify(params)),
        entry: entry('{}'),
      };
    },
  } as unknown as CheckContext;
  return { ctx, sent, attempts: () => attempts };
}

const property = (judge: (n: number) => Outcome, extra: Partial<Property<number>> = {}): Property<number> => ({
  id: 'test/property/numbers',
  what: 'numbers',
  arbitrary: fc.integer({ min: 0, max: 1000 }),
  judge: async (n, request) => {
    await request('test/echo', { n });
    return judge(n);
  },
  ...extra,
});
const byRange = (n: number) => (n >= 900 ? fail('too big') : n >= 100 ? warn('big') : pass('small'));

describe('a property run against the server', () => {
  it('passes with a tally of what the server answered, and one exchange as its transcript', async () => {
    const { ctx, sent } = context(1);
    const outcome = await checkProperty(
      ctx,
      property(() => pass('fine')),
    );
    expect(outcome.status).toBe('pass');
    // 50 drawn, each distinct value sent once.
    expect(outcome.message).toBe('39 generated numbers (11 repeated value(s) not sent again): 39× fine');
    expect(sent).toHaveLength(39);
    expect(new Set(sent).size).toBe(39);
    expect(outcome.transcript).toHaveLength(2);
  });

  it('reports the worst verdict, shrunk to the smallest counterexample, with a replay command', async () => {
    const { ctx } = context(5);
    const outcome = await checkProperty(ctx, property(byRange));
    expect(outcome.status).toBe('fail');
    expect(outcome.actual).toEqual({ counterexample: 900 });
    expect(outcome.message).toMatch(
      /^too big\n\d+ of \d+ generated numbers \(\d+ repeated value\(s\) not sent again\) failed; the counterexample below is shrunk in \d+ step\(s\)\nreplay: mcp-conformance --seed 5 --only test\/property\/numbers \.\/server$/,
    );
    const warned = await checkProperty(
      context(5).ctx,
      property((n) => (n >= 100 ? warn('big') : pass('small'))),
    );
    expect([warned.status, warned.actual]).toEqual(['warn', { counterexample: 100 }]);
  });

  it('gives the same values and verdicts for the same seed, and the same verdicts for another seed', async () => {
    const runs = await Promise.all(
      [5, 5, 6].map(async (seed) => {
        const { ctx, sent } = context(seed);
        return { outcome: await checkProperty(ctx, property(byRange)), sent };
      }),
    );
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2].sent).not.toEqual(runs[0].sent);
    expect([runs[2].outcome.status, runs[2].outcome.actual]).toEqual([runs[0].outcome.status, runs[0].outcome.actual]);
  });

  it('blames a server that dies on the first value it left unanswered, without shrinking', async () => {
    const { ctx, sent } = context(3, { dies: (n) => n >= 500 });
    const outcome = await checkProperty(
      ctx,
      property(() => pass('fine')),
    );
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain('the server stopped answering at the generated value below');
    expect(outcome.message).toContain('Error: boom');
    const culprit = (outcome.actual as { counterexample: number }).counterexample;
    expect(culprit).toBeGreaterThanOrEqual(500);
    expect(sent.every((n) => n < 500)).toBe(true);
  });

  it('keeps no more in flight than a slow, sequential server answers in a quarter of the timeout', async () => {
    let queue: Promise<unknown> = Promise.resolve();
    let pending = 0;
    let most = 0;
    const ctx = {
      ...context(1, { runs: 20 }).ctx,
      timeoutMs: 400,
      request(_method: string, params: unknown): Promise<Reply> {
        most = Math.max(most, ++pending);
        const answered = queue.then(() => new Promise((r) => setTimeout(r, 20)));
        queue = answered;
        return answered.then(() => {
          pending--;
          return { message: { jsonrpc: '2.0', id: 1, result: params as object }, sent: entry(''), entry: entry('') };
        });
      },
    } as unknown as CheckContext;
    expect(
      (
        await checkProperty(
          ctx,
          property(() => pass('fine')),
        )
      ).status,
    ).toBe('pass');
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(5); // 400 ms / 4 / 20 ms
  });

  it('keeps more in flight for a server that answers side by side, as its answers show it can', async () => {
    let pending = 0;
    let most = 0;
    const ctx = {
      ...context(1, { runs: 200 }).ctx,
      timeoutMs: 400,
      async request(_method: string, params: unknown): Promise<Reply> {
        most = Math.max(most, ++pending);
        await new Promise((r) => setTimeout(r, 20));
        pending--;
        return { message: { jsonrpc: '2.0', id: 1, result: params as object }, sent: entry(''), entry: entry('') };
      },
    } as unknown as CheckContext;
    expect(
      (
        await checkProperty(
          ctx,
          property(() => pass('fine')),
        )
      ).status,
    ).toBe('pass');
    // A sequential server of the same speed gets 5 at most (above); this one shows 5 answered in the time of one.
    expect(most).toBeGreaterThan(5);
  });

  it('spends at most one timeout shrinking, however few requests that is', async () => {
    let shrinking = false;
    let shrinkRequests = 0;
    const ctx = {
      ...context(2).ctx,
      timeoutMs: 100,
      async request(_method: string, params: unknown): Promise<Reply> {
        if (shrinking) shrinkRequests++;
        await new Promise((r) => setTimeout(r, 30));
        return { message: { jsonrpc: '2.0', id: 1, result: params as object }, sent: entry(''), entry: entry('') };
      },
    } as unknown as CheckContext;
    let sent = 0;
    const outcome = await checkProperty(ctx, {
      ...property(() => warn('always')),
      arbitrary: fc.string({ minLength: 200, maxLength: 400 }) as never,
      judge: async (n, request) => {
        // The 50 generated values go first; every request after them is a shrinking step.
        if (++sent > 50) shrinking = true;
        await request('test/echo', { n });
        return warn('always');
      },
    });
    expect(outcome.status).toBe('warn');
    // 100 ms of 30 ms answers: a few steps, where the request budget alone would allow 100.
    expect(shrinkRequests).toBeGreaterThan(0);
    expect(shrinkRequests).toBeLessThanOrEqual(5);
  });

  it('sends no more values once one is left unanswered: waiting out more timeouts would change nothing', async () => {
    const { ctx, attempts } = context(4, { runs: 300, hangs: (n) => n >= 500 });
    const outcome = await checkProperty(
      ctx,
      property(() => pass('fine')),
    );
    expect([outcome.status, outcome.message]).toEqual([
      'fail',
      expect.stringContaining('no answer to test/echo within 10.0 s: it needs no slow work'),
    ]);
    expect(attempts()).toBeLessThan(100);
  });

  it('tries the examples first', async () => {
    const { ctx, sent } = context(1, { runs: 3 });
    await checkProperty(
      ctx,
      property(() => pass('fine'), { examples: [7, 8] }),
    );
    expect(sent.slice(0, 2)).toEqual([7, 8]);
    expect(sent).toHaveLength(3);
  });

  it('spends a bounded number of requests on shrinking', async () => {
    const { ctx, sent } = context(2);
    const outcome = await checkProperty(ctx, {
      ...property(() => warn('always')),
      arbitrary: fc.string({ minLength: 200, maxLength: 400 }) as never,
    });
    expect(outcome.status).toBe('warn');
    expect(sent.length).toBeLessThanOrEqual(50 + 100);
  });

  it('gives each stratum its own runs and examples first, and counts what each was sent', async () => {
    const { ctx, sent } = context(1, { runs: 10 });
    const stratum = (label: string, min: number, examples: number[]) => ({
      label,
      arbitrary: fc.integer({ min, max: min + 99 }),
      examples,
      runs: 5,
    });
    let counts: Map<string, number> | undefined;
    const outcome = await checkProperty(ctx, {
      ...property(() => pass('fine')),
      strata: [stratum('low', 0, [0, 1]), stratum('high', 1000, [1000])],
      note: (c) => ((counts = c), 'noted'),
    });
    expect(outcome.message).toMatch(/\nnoted$/);
    // Interleaved, examples first: each stratum has its turn from the start.
    expect(sent.slice(0, 4)).toEqual([0, 1000, 1, expect.any(Number)]);
    expect([...counts!]).toEqual([
      ['low', sent.filter((n) => n < 1000).length],
      ['high', sent.filter((n) => n >= 1000).length],
    ]);
    expect(sent.length).toBeLessThanOrEqual(10);
  });

  it('leaves a part that timed out out of the rest of the property, and of the others given the same map, and goes on', async () => {
    const { ctx, sent, attempts } = context(1, { runs: 40, hangs: (n) => n >= 1000 });
    const left = new Map<string, string>();
    const strata = [
      { label: 'fast', arbitrary: fc.integer({ min: 0, max: 999 }), examples: [], runs: 20 },
      { label: 'slow', arbitrary: fc.integer({ min: 1000, max: 1999 }), examples: [], runs: 20 },
    ];
    const slow = { of: (n: number) => (n >= 1000 ? 'slow' : 'fast'), left };
    const outcome = await checkProperty(ctx, {
      ...property((n) => (n === 7 ? fail('seven') : pass('fine'))),
      strata: [...strata, { label: 'seven', arbitrary: fc.constant(7), examples: [], runs: 1 }],
      slow,
    });
    // The fast part was still judged after the slow one timed out: its failure is the verdict, with the slow part named.
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain(
      'no answer from tool slow (test/echo) within 10.0 s: slow work may take longer (--timeout raises the limit); left out of generated calls for the rest of the run',
    );
    expect(sent.filter((n) => n >= 1000)).toEqual([]);
    expect(attempts() - sent.length).toBe(1); // one call of the slow part, then none
    expect(left.get('slow')).toMatch(/^no answer within 10000 ms to a generated call in test\/property\/numbers/);
    // Another property given the same map never calls it.
    const again = context(2, { runs: 40, hangs: (n) => n >= 1000 });
    const second = await checkProperty(again.ctx, { ...property(() => pass('fine')), strata, slow });
    expect(second.status).toBe('pass');
    expect(again.attempts()).toBe(again.sent.length);
  });

  it('lets a harness error through, to be reported as an error and never blamed on the server', async () => {
    const { ctx } = context(1);
    await expect(
      checkProperty(
        ctx,
        property(() => {
          throw new TypeError('our bug');
        }),
      ),
    ).rejects.toThrow('our bug');
  });
});
