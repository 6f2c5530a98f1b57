import { describe, expect, it } from 'vitest';
import type { Readable } from 'node:stream';
import { LineBudget } from '../src/transport/line-budget.js';

/** A stand-in stream that records whether it is paused. */
function stream(name: string) {
  const s = { name, paused: false, pause: () => void (s.paused = true), resume: () => void (s.paused = false) };
  return s as typeof s & Readable;
}

describe('the budget for lines being assembled', () => {
  it('pauses a stream with a large line past the limit unless its line is the oldest, and resumes them in turn', () => {
    const budget = new LineBudget(100, 10);
    const [a, b, c] = [stream('a'), stream('b'), stream('c')];
    budget.hold(a, 60);
    budget.hold(b, 30);
    expect([a.paused, b.paused]).toEqual([false, false]);
    budget.hold(b, 50); // 110 > 100: b's line is not the oldest
    expect(b.paused).toBe(true);
    budget.hold(a, 80); // the oldest line always goes on
    expect(a.paused).toBe(false);
    budget.hold(c, 20); // 150, and c's line started last
    expect(c.paused).toBe(true);
    budget.hold(a, 0); // a's line is complete: b's is now the oldest, and 70 is under the limit: all resume
    expect([b.paused, c.paused]).toEqual([false, false]);
    expect(budget.total).toBe(70);
  });

  it('resumes only the new oldest line while still over the limit, never pauses small lines, and forgets a stream that is gone', () => {
    const budget = new LineBudget(100, 10);
    const [a, b, c, d] = [stream('a'), stream('b'), stream('c'), stream('d')];
    budget.hold(a, 90);
    budget.hold(b, 50);
    budget.hold(c, 50);
    expect([b.paused, c.paused]).toEqual([true, true]);
    budget.hold(d, 5); // small: goes on
    expect(d.paused).toBe(false);
    budget.hold(a, 0); // 105 left: b (oldest now) resumes, c waits
    expect([b.paused, c.paused]).toEqual([false, true]);
    budget.hold(b, 0); // gone (its stream closed)
    expect(c.paused).toBe(false);
    budget.hold(c, 0);
    budget.hold(d, 0);
    expect(budget.total).toBe(0);
  });
});
