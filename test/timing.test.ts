// The critical path of a run: what it records while the run goes on, and the line the reports show.
import { describe, expect, it } from 'vitest';
import { fixedWait, recordCall, recordStart, recordWait, timeRun, within } from '../src/timing.js';

describe('the critical path', () => {
  it('names the starts, the slowest requests and the fixed waits of the run that recorded them', () => {
    const run = timeRun();
    for (const ms of [1100, 1200, 1300]) recordStart(ms);
    recordCall('tools/call', { name: 'list-databases', arguments: {} }, 2100);
    recordCall('resources/read', { uri: 'file:///a' }, 300);
    recordCall('ping', undefined, 5);
    recordWait('a late answer', 1000);
    recordWait('a late answer', 1000);
    const path = run.stop(19_400);
    // Recorded after the run stopped: not this run's.
    recordStart(5);
    expect(path.starts).toEqual({ count: 3, medianMs: 1200, maxMs: 1300, totalMs: 3600 });
    expect(path.slowCalls.map((c) => c.name ?? c.method)).toEqual(['list-databases', 'file:///a', 'ping']);
    expect(path.fixedWaits).toEqual([{ what: 'a late answer', ms: 1000, count: 2 }]);
    expect(path.line).toBe(
      '19.4 s: 3 server starts at 1.2 s each; tool `list-databases` 2.1 s; resources/read `file:///a` 0.3 s; 2 × 1.0 s a late answer',
    );
  });

  it('says so when a run had no start, slow request or fixed wait', () => {
    expect(timeRun().stop(120).line).toBe('0.1 s: no server start, slow request or fixed wait');
  });

  it('records a window only when it ran its whole length', async () => {
    const run = timeRun();
    expect(await within('never', 10_000, Promise.resolve('answered'), 'late')).toBe('answered');
    expect(await within('a quiet stream', 5, new Promise(() => {}), 'late')).toBe('late');
    await fixedWait('a linger', 5);
    expect(
      run
        .stop(10)
        .fixedWaits.map((w) => w.what)
        .sort(),
    ).toEqual(['a linger', 'a quiet stream']);
  });
});
