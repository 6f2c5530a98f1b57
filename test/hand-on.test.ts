// A session handed on from check to check (ping before initialize → the notification case → the cancellation) gives
// each of them the verdict it gets on a session of its own, whether the one before passed (handed on) or not.
import { describe, expect, it } from 'vitest';
import { HAND_ON } from '../src/run/hand-on.js';
import type { Report } from '../src/schema/generated/report.js';
import { loadSuite } from '../src/suite/suite.js';
import { resolveTarget } from '../src/target/resolve.js';
import { createFaultyServer } from './fixtures/servers/faulty-server.mjs';
import { runSuiteWith } from './suite-run.js';

const CHAIN = [HAND_ON[0].from, ...HAND_ON.map((p) => p.to)];
/** Opens the probe the cancellation reads, as in a whole run (else the cancellation would open it, on a session of its own). */
const PROBE = 'progress/requests/notifications';

async function run(faults: string[], only: string[]): Promise<Report> {
  const plan = await resolveTarget({ serve: createFaultyServer(faults) });
  const suite = await loadSuite({ only: [...only, PROBE] });
  return runSuiteWith({ plan, timeoutMs: 5000, budgetMs: 60_000, suite, runs: 25, seed: 1 });
}

const verdicts = (r: Report) =>
  r.checks
    .filter((c) => c.id !== PROBE)
    .map((c) => `${c.id}: ${c.status}`)
    .sort();

describe('sessions handed on', () => {
  // Each row: the chain's verdicts with the fault, and which checks took their session from the one before.
  const rows: [string, string[], boolean[]][] = [
    ['', ['pass', 'pass', 'pass'], [true, true]],
    ['ping-needs-init', ['warn', 'pass', 'pass'], [false, true]],
    ['reply-to-notification', ['pass', 'fail', 'pass'], [true, false]],
    ['cancel-ignored', ['pass', 'pass', 'warn'], [true, true]],
  ];
  it.concurrent.each(rows)(
    'fault %j: the verdicts of each check alone; handed on only after a pass',
    async (fault, statuses, took) => {
      const faults = fault ? [fault] : [];
      const [chained, ...alone] = await Promise.all([run(faults, CHAIN), ...CHAIN.map((id) => run(faults, [id]))]);
      expect(verdicts(chained)).toEqual(CHAIN.map((id, i) => `${id}: ${statuses[i]}`).sort());
      expect(verdicts(chained)).toEqual(alone.flatMap(verdicts).sort());
      // A taker's transcript goes on from its giver's: its first entry is not the session's first.
      const handed = CHAIN.slice(1).map((id) => chained.checks.find((c) => c.id === id)!.transcript![0].seq > 0);
      expect(handed).toEqual(took);
    },
  );
});
