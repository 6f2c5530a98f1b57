/**
 * Puts the conformance suite inside a server project's own vitest run:
 *
 *   // test/conformance.test.ts
 *   import { defineConformanceSuite } from 'mcp-conformance/vitest';
 *   defineConformanceSuite({ target: './dist/server.js' });
 *
 * or, with the server in the test's own process (no build step), `serve` instead of `target`:
 *
 *   defineConformanceSuite({ serve: ({ input, output }) => createServer().connect(new StdioServerTransport(input, output)) });
 */
import { describe, it } from 'vitest';
import { failsTheRun, isExpectedFailure, isStale, staleAdvice } from './baseline/status.js';
import { runConformance, type ConformanceOptions } from './index.js';
import type { CheckResult } from './schema/generated/report.js';
import { triadText } from './report/triad.js';

export interface ConformanceSuiteOptions extends ConformanceOptions {
  /** The name of the describe block (default `MCP conformance`). */
  name?: string;
}

/** A check the run holds against the server; its message is the triad, so the stack would only point into this file. */
class ConformanceFailure extends Error {
  override readonly name = 'ConformanceFailure';
  constructor(check: CheckResult) {
    const text = isStale(check)
      ? staleAdvice(check)
      : triadText(check, { indent: 2, maxJson: 4000, maxText: 500, last: 8 });
    super(`${check.message.split('\n')[0]}\n${text}`);
    this.stack = `${this.name}: ${this.message}`;
  }
}

/**
 * Declares one vitest test per check. The server is tested once, while vitest collects the file, with the same
 * options as the CLI (`target`, `config`, `expectedFailures`, `strict` …). A failure, a harness error or a stale
 * expected-failure entry fails its test with the requirement, expected vs actual and the transcript; a skip is
 * skipped with its reason; a warning, or a failure the baseline expects, passes with an annotation saying so.
 * Launch and option errors fail the file.
 */
export function defineConformanceSuite(options: ConformanceSuiteOptions): void {
  const { name = 'MCP conformance', ...run } = options;
  describe(name, async () => {
    const report = await runConformance(run);
    for (const check of report.checks) {
      it(`${check.id}: ${check.title}`, async ({ skip, annotate }) => {
        if (check.status === 'skip') skip(check.message);
        if (failsTheRun(check) || check.status === 'error') throw new ConformanceFailure(check);
        if (isExpectedFailure(check))
          await annotate(
            `expected failure (${check.baseline?.reason ?? check.baseline?.entry}): ${check.message}`,
            'notice',
          );
        else if (check.status === 'warn') await annotate(check.message, 'warning');
      });
    }
  });
}
