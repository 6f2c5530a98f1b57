// The progress check's verdict on a server whose behaviour does not move must not move with the seed: a tool whose
// amount of work is an argument is called again at the upper end of its range when its first call showed too little.
import { describe, expect, it } from 'vitest';
import { loadSuite } from '../src/suite/suite.js';
import { resolveTarget } from '../src/target/resolve.js';
import { createFaultyServer } from './fixtures/servers/faulty-server.mjs';
import { runSuiteWith } from './suite-run.js';

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

describe('progress/requests/notifications at ten seeds', () => {
  it('fails count-to (backwards from n - 1) at every seed, naming the call its verdict came from', async () => {
    const suite = await loadSuite({ only: ['progress/requests/notifications'] });
    const results = await Promise.all(
      SEEDS.map(async (seed) => {
        const plan = await resolveTarget({ serve: createFaultyServer(['progress-by-count']) });
        const report = await runSuiteWith({ plan, timeoutMs: 5000, budgetMs: 60_000, suite, seed, runs: 5 });
        return report.checks.find((c) => c.id === 'progress/requests/notifications')!;
      }),
    );
    expect(results.map((c) => `${c.status} ${c.message.split('\n')[0]}`)).toEqual(
      SEEDS.map(() => expect.stringMatching(/^fail tools\/call count-to.*: progress went from \d back to \d/)),
    );
    // Some seeds draw n = 1 (one step): their verdict comes from the second call, and says so.
    expect(results.some((c) => c.message.startsWith('tools/call count-to (again, arguments {"n":4})'))).toBe(true);
  });
});
