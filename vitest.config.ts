import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first: each of the two workers takes the next file when it is free, so these
 * start first and the short ones fill in around them. Vitest orders by the durations it cached last time, which a
 * fresh clone does not have (it would start with the largest files, not the slowest).
 */
const SLOWEST = [
  // npm test
  'test/http-faults.test.ts',
  'test/stateless-http-faults.test.ts',
  'test/faults.test.ts',
  'test/run-budget.test.ts',
  'test/report-sarif.test.ts',
  'test/stateless.test.ts',
  'test/http-slow-server.test.ts',
  'test/report-html.test.ts',
  'test/golden-reports.test.ts',
  'test/in-process.test.ts',
  // npm run test:e2e
  'test/e2e/faults.test.ts',
  'test/e2e/zoo.test.ts',
  'test/e2e/http.test.ts',
  'test/e2e/cli.test.ts',
  'test/e2e/dual-era.test.ts',
  'test/e2e/properties.test.ts',
  'test/e2e/http-stateless.test.ts',
  'test/e2e/timeouts.test.ts',
  'test/e2e/in-process.test.ts',
  'test/e2e/mcp-server.test.ts',
  'test/e2e/vitest-helper.test.ts',
  'test/e2e/init.test.ts',
  'test/e2e/transport-stdio.test.ts',
  'test/e2e/smoke.test.ts',
  'test/e2e/reference-server.test.ts',
  'test/e2e/matrix-run.test.ts',
  'test/e2e/stateless.test.ts',
  'test/e2e/api.test.ts',
  'test/e2e/config.test.ts',
];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOWEST.indexOf(relative(import.meta.dirname, f.moduleId).replaceAll('\\', '/'));
      return i < 0 ? SLOWEST.length : i;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * One tier of the project's tests. `npm test` (this file): unit tests and the fault rows, with servers and clients in
 * the test's own process (a few files still run the CLI for its reports). `npm run test:e2e` (vitest.e2e.config.ts): test/e2e/, whose tests start processes: the CLI
 * as a user runs it (test/e2e/smoke.test.ts), real servers from npm, the zoo, stdio, signals, the fault rows of a
 * process, whole-suite runs.
 */
export function tier(include: string[], exclude: string[] = [], isolate = true) {
  return defineConfig({
    test: {
      include,
      exclude: ['**/node_modules/**', ...exclude],
      // A bound for a hang only: each run a test starts is bounded by its own limits (and runCli's 120 s), and two
      // files at a time may make a run take twice as long as alone.
      testTimeout: 180_000,
      hookTimeout: 180_000,
      pool: 'forks',
      // npm test: the files of a worker share one module graph rather than each importing the project afresh (measured
      // idle: 214 s → 172 s, and a third less CPU); the e2e tier keeps a fresh one per file.
      isolate,
      // Two files at a time on a 2-core machine: most e2e tests wait on servers and timeouts, not on the CPU.
      maxWorkers: 2,
      // Tests side by side within a file (describe.concurrent): each starts a CLI and its servers, so three per worker
      // keep both cores busy without starving a run of the CPU its limits assume.
      maxConcurrency: 3,
      sequence: { sequencer: SlowestFirst },
    },
  });
}

export default tier(['test/**/*.test.ts'], ['test/e2e/**'], false);
