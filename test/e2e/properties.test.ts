import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuite } from '../../src/suite/suite.js';
import { PROPERTIES } from '../../src/checks/index.js';
import type { RunOptions } from '../../src/run/run.js';
import type { Report } from '../../src/schema/generated/report.js';
import { resolveTarget } from '../../src/target/resolve.js';
import { FAULTY, REFERENCE, runCli, statusOf } from '../helpers.js';
import { runSuiteWith } from '../suite-run.js';

async function run(target: string, options: Partial<RunOptions> = {}, faults?: string): Promise<Report> {
  const plan = await resolveTarget({ target, env: faults ? { MCP_FAULTS: faults } : {} });
  // Generous timeouts: a timeout is a verdict, and a busy CI machine must not turn into one.
  return runSuiteWith({ plan, timeoutMs: 30_000, budgetMs: 120_000, ...options });
}
type Call = { tool: string; arguments: Record<string, unknown> };
const check = (report: Report, id: string) => report.checks.find((c) => c.id === id)!;
const verdicts = (report: Report) => report.checks.map((c) => `${c.id} ${c.status}`);
const PROPERTY_IDS = [
  'base/method-not-found',
  'base/response/id-types',
  'tools/call/valid-arguments',
  'pagination/invalid-cursor',
];

const SLOW = 180_000;
const cli = (args: string[]) => runCli(['--timeout', '30', ...args]);

describe.concurrent('the generated checks (properties)', () => {
  it(
    'give the same checks and verdicts for the same seed, and the same verdicts for another seed, on the reference server',
    async () => {
      const [a, b, other] = await Promise.all([
        run(REFERENCE, { seed: 1234 }),
        run(REFERENCE, { seed: 1234 }),
        run(REFERENCE, { seed: 99 }),
      ]);
      expect(a.seed).toBe(1234);
      expect(verdicts(a).length).toBeGreaterThan(0);
      expect(verdicts(b)).toEqual(verdicts(a));
      expect(verdicts(other)).toEqual(verdicts(a));
      // The same seed draws the same values: what the server answered tallies the same.
      for (const id of PROPERTY_IDS) expect(check(b, id).message).toBe(check(a, id).message);
    },
    SLOW,
  );

  it(
    'replay a failure: the same seed with only that check gives the same shrunk counterexample',
    async () => {
      const id = 'tools/call/unknown-tool';
      const [whole, only] = await Promise.all([
        run(FAULTY, { seed: 7 }, 'unknown-tool-success'),
        loadSuite({ only: [id] }).then((suite) => run(FAULTY, { seed: 7, suite }, 'unknown-tool-success')),
      ]);
      const [a, b] = [check(whole, id), check(only, id)];
      expect(a.status).toBe('fail');
      expect(a.message).toContain(`replay: mcp-conformance --seed 7 --revision 2025-11-25 --only ${id} `);
      expect(b.actual).toEqual(a.actual);
      // Shrunk: any name is a counterexample here, and the shortest is one character.
      expect((a.actual as { counterexample: string }).counterexample).toHaveLength(1);
    },
    SLOW,
  );

  it(
    'judge -32602 for invalid arguments by revision: a warning since 2025-11-25 (SEP-1303), right before',
    async () => {
      const suite = await loadSuite({ only: ['tools/call/invalid-arguments'] });
      const [newest, older] = await Promise.all([
        run(FAULTY, { suite }, 'invalid-arguments-32602'),
        run(FAULTY, { suite, protocolVersion: '2025-06-18' }, 'invalid-arguments-32602'),
      ]);
      expect(check(newest, 'tools/call/invalid-arguments').status).toBe('warn');
      expect(check(older, 'tools/call/invalid-arguments').status).toBe('pass');
    },
    SLOW,
  );

  it(
    'name the arguments that crashed the server',
    async () => {
      const result = check(
        await run(
          FAULTY,
          { suite: await loadSuite({ only: ['tools/call/invalid-arguments'] }) },
          'crash-on-non-string',
        ),
        'tools/call/invalid-arguments',
      );
      expect(result.status).toBe('fail');
      expect(result.message).toContain('TypeError: arguments.');
      const { counterexample } = result.actual as { counterexample: { invalid: string[] } };
      expect(counterexample.invalid.join('\n')).toMatch(/must be string/);
    },
    SLOW,
  );

  it(
    'print the seed, keep it in the report, and take --runs',
    async () => {
      const r = await cli(['--runs', '10', REFERENCE]);
      expect(r.exitCode, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain(
        `seed        ${r.report?.seed} (--seed ${r.report?.seed} replays the generated checks)`,
      );
      expect(r.report?.checks.find((c) => c.id === 'base/method-not-found')?.message).toMatch(
        /^10 generated unknown method names/,
      );
      const again = await cli(['--seed', String(r.report?.seed), '--runs', '10', REFERENCE]);
      // The generated checks replay as they ran; others may report times and counts of interleaved work (cancellation, frames).
      const generated = (report: Report | undefined) =>
        report?.checks.filter((c) => PROPERTIES.some((p) => p.id === c.id)).map((c) => c.message);
      expect(generated(r.report)?.length).toBeGreaterThan(5);
      expect(generated(again.report)).toEqual(generated(r.report));
      expect((await cli(['--runs', '0', REFERENCE])).exitCode).toBe(2);
    },
    SLOW,
  );

  it(
    'call only read-only tools by default, say which were left out, and follow --allow-tool and --tool-calls',
    async () => {
      const only = ['--only', 'tools/call/*'];
      const [safe, allowed, none] = await Promise.all([
        cli([...only, REFERENCE]),
        cli([...only, '--allow-tool', 'write-note', REFERENCE]),
        cli([...only, '--tool-calls', 'none', REFERENCE]),
      ]);
      const message = (r: typeof safe) => r.report?.checks.find((c) => c.id === 'tools/call/valid-arguments')?.message;
      expect(message(safe)).toMatch(
        /calls per tool \(\d+ at boundary values\): echo \d+, add \d+, search-docs \d+, get-image \d+, count-words \d+, count-slowly \d+, ask-llm \d+, confirm-choice \d+, sign-in \d+, list-roots \d+; left out: write-note \(not annotated readOnlyHint: true/,
      );
      expect(message(safe)).toContain('index-docs (it can only be called as a task)');
      expect(message(allowed)).toMatch(
        /: echo \d+, add \d+, search-docs \d+, get-image \d+, write-note \d+, count-words \d+, count-slowly \d+, ask-llm \d+, confirm-choice \d+, sign-in \d+, list-roots \d+;/,
      );
      expect(statusOf(none.report, 'tools/call/valid-arguments')).toBe('skip');
      expect(statusOf(none.report, 'tools/call/invalid-arguments')).toBe('skip');
      expect(message(none)).toBe(
        'no tool can be called with generated valid arguments; left out: echo, add, search-docs, get-image, write-note, count-words, index-docs, count-slowly, ask-llm, confirm-choice, sign-in, list-roots (tool calls are off (--tool-calls none))',
      );
      // An unknown tool is never a real one: it is called whatever the mode.
      expect(statusOf(none.report, 'tools/call/unknown-tool')).toBe('pass');
    },
    SLOW,
  );

  it(
    "print a replay line that runs as printed: a command target after --, with the run's environment, revision, runs and tool policy",
    async () => {
      const id = 'tools/call/unknown-tool';
      const env = ['--env', 'MCP_FAULTS=unknown-tool-success'];
      const first = await cli([
        ...env,
        '--seed',
        '7',
        '--runs',
        '20',
        '--revision',
        '2025-06-18',
        '--tool-calls',
        'all',
        '--',
        'node',
        FAULTY,
      ]);
      const failed = first.report?.checks.find((c) => c.id === id);
      const line = /\nreplay: (.+)$/.exec(failed?.message ?? '')?.[1];
      expect(line).toBe(
        `mcp-conformance --seed 7 --runs 20 --revision 2025-06-18 --tool-calls all --only ${id} --env MCP_FAULTS=unknown-tool-success -- node ${FAULTY}`,
      );
      // The printed line, run again as it is, replays the same counterexample.
      const again = await cli(line!.split(' ').slice(1));
      expect(again.report?.checks.map((c) => c.id)).toContain(id);
      expect(again.report?.checks.find((c) => c.id === id)?.actual).toEqual(failed?.actual);
    },
    SLOW,
  );
});

describe.concurrent('generated tool calls: boundary values, per-tool shares, slow tools', () => {
  it(
    'find the b = 0 that breaks a read-only divide(a, b) at the default --runs, at every seed, and count the calls per tool',
    async () => {
      const suite = await loadSuite({ only: ['tools/call/valid-arguments'] });
      const reports = await Promise.all([1, 2, 3].map((seed) => run(FAULTY, { seed, suite }, 'divide-by-zero')));
      for (const report of reports) {
        const result = check(report, 'tools/call/valid-arguments');
        expect(result.status, result.message).toBe('warn');
        expect(result.message).toContain('valid arguments were answered with error -32603');
        expect((result.actual as { counterexample: Call }).counterexample).toMatchObject({
          tool: 'divide',
          arguments: { b: 0 },
        });
        expect(result.message).toMatch(
          /calls per tool \(\d+ at boundary values\): echo \d+, add \d+, search-docs \d+, get-image \d+, count-words \d+, count-slowly \d+, ask-llm \d+, confirm-choice \d+, sign-in \d+, list-roots \d+, divide \d+; left out: write-note/,
        );
      }
    },
    SLOW,
  );

  it(
    'give every one of 300 tools its calls at the default --runs',
    async () => {
      const result = check(
        await run(FAULTY, { seed: 1, suite: await loadSuite({ only: ['tools/call/valid-arguments'] }) }, 'many-tools'),
        'tools/call/valid-arguments',
      );
      expect(result.status, result.message).toBe('pass');
      const counts = [...result.message.matchAll(/many-(\d+) (\d+)/g)];
      expect(counts).toHaveLength(300);
      for (const [, , n] of counts) expect(Number(n)).toBeGreaterThanOrEqual(1);
    },
    SLOW,
  );

  it(
    'leave a tool that timed out out of the rest of the run, and go on testing the others',
    async () => {
      const log = join(await mkdtemp(join(tmpdir(), 'mcpc-slow-')), 'calls');
      const plan = await resolveTarget({
        target: FAULTY,
        env: { MCP_FAULTS: 'slow-tool,bad-structured-content', SLOW_TOOL_LOG: log },
      });
      const report = await runSuiteWith({
        plan,
        timeoutMs: 3000,
        budgetMs: 120_000,
        seed: 1,
        suite: await loadSuite({ only: ['tools/call/*'] }),
      });
      const valid = check(report, 'tools/call/valid-arguments');
      // The other tools were still called after slow-lookup timed out: add's bad structuredContent is found.
      expect(valid.status, valid.message).toBe('fail');
      expect(valid.message).toContain('structuredContent does not conform to the outputSchema');
      const invalid = check(report, 'tools/call/invalid-arguments');
      for (const message of [valid.message, invalid.message]) expect(message).toMatch(/slow-lookup/);
      expect(`${valid.message}\n${invalid.message}`).toMatch(
        /no answer from tool slow-lookup \(tools\/call\) within 3\.0 s: slow work may take longer \(--timeout raises the limit\); left out of generated calls for the rest of the run/,
      );
      // One call at most from each property (they run side by side), not its share of their runs.
      expect((await readFile(log, 'utf8')).trim().split('\n').length).toBeLessThanOrEqual(2);
    },
    SLOW,
  );
});
