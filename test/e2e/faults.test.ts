// The faults of a process (tier process in faults.yaml: a crash or exit, signals, stdin close), each tripping its
// check with the faulty server as a process; and the reference server's whole-suite runs over stdio. The other rows
// run in the test's own process: test/faults.test.ts.
import { describe, expect, it } from 'vitest';
import { loadSuite, type Suite } from '../../src/suite/suite.js';
import { REVISIONS } from '../../src/schema/validators.js';
import type { Report } from '../../src/schema/generated/report.js';
import { resolveTarget } from '../../src/target/resolve.js';
import { DISABLED, NO_TASKS, STATELESS, type ServerStart, serverEnv, trippingRows } from '../fault-rows.js';
import { FAULTY, REFERENCE } from '../helpers.js';
import { runSuiteWith } from '../suite-run.js';

type Options = {
  timeoutMs?: number;
  server?: ServerStart;
  faults?: string;
  revision?: string;
  suite?: Suite;
  runs?: number;
  seed?: number;
  with?: string[];
};
const ROWS = trippingRows('process');
/** A fault row's generated values: few, from one seed, so that a row trips the same way on every run. */
const QUICK = { runs: 25, seed: 1 };

async function run(
  target: string,
  { timeoutMs = 5000, server, faults, revision, suite, runs, seed }: Options = {},
): Promise<Report> {
  const plan = await resolveTarget({ target, env: { ...serverEnv(server), ...(faults && { MCP_FAULTS: faults }) } });
  return runSuiteWith({ plan, timeoutMs, budgetMs: 60_000, protocolVersion: revision, suite, runs, seed });
}

/** A row's check and the checks it names `with`. */
const quickSuite = (check: string, options: Options = {}): Promise<Suite> =>
  loadSuite({ only: [check, ...(options.with ?? [])] });

describe('every check passes on the reference server', () => {
  it('never fails or warns in any revision or configuration, and each check passes in at least one', async () => {
    const { checks, frameRules } = await loadSuite();
    const reports = await Promise.all([
      ...REVISIONS.map((revision) => run(REFERENCE, { revision })),
      run(FAULTY, STATELESS),
      // The reference server without capabilities: the gating cases need one.
      run(FAULTY, DISABLED),
      run(FAULTY, NO_TASKS),
    ]);
    const bad = reports.flatMap((r) =>
      r.checks
        .filter((c) => !['pass', 'skip'].includes(c.status))
        .map((c) => `${r.server?.protocolVersion} ${c.id}: ${c.status} ${c.message}`),
    );
    expect(bad).toEqual([]);
    const passed = new Set(reports.flatMap((r) => r.checks.filter((c) => c.status === 'pass').map((c) => c.id)));
    // The Streamable HTTP checks pass over HTTP: test/e2e/http.test.ts (the stateless wire's: http-stateless.test.ts).
    expect(
      [...checks, ...frameRules]
        .filter((c) => c.transport !== 'http')
        .map((c) => c.id)
        .filter((id) => !passed.has(id)),
    ).toEqual([]);
  });
});

describe.concurrent('values the suite supplies, and formats', () => {
  const verdicts = async (fault: string, options: Options = {}, also: string[] = []) => {
    const suite = await loadSuite({ only: ['prompts/get/listed', 'schema/results', ...also] });
    const report = await run(FAULTY, { ...options, ...QUICK, suite, faults: fault });
    return report.checks.map((c) => `${c.id}: ${c.status} ${c.message}`);
  };
  for (const [era, options] of [
    ['2025-11-25', {}],
    ['2026-07-28', STATELESS],
  ] as const) {
    it(`fills a required argument that names a URI with a URI, so a prompt that embeds it passes (embed-uri-argument, ${era})`, async () => {
      const lines = await verdicts('embed-uri-argument', options);
      expect(lines.filter((l) => !/: (pass|skip) /.test(l))).toEqual([]);
      expect(lines.find((l) => l.startsWith('prompts/get/listed'))).toMatch(/: pass \d+ prompt/);
    });
  }
  it('warns on a format finding alone and names the format, where prompts/get/listed and tools/call/valid-arguments pass (resource-uri-no-scheme)', async () => {
    const lines = await verdicts('resource-uri-no-scheme', {}, ['tools/call/valid-arguments']);
    expect(lines.find((l) => l.startsWith('prompts/get/listed'))).toMatch(/^prompts\/get\/listed: pass /);
    expect(lines.find((l) => l.startsWith('tools/call/valid-arguments'))).toMatch(
      /^tools\/call\/valid-arguments: pass /,
    );
    expect(lines.find((l) => l.startsWith('schema/results'))).toMatch(/^schema\/results: warn .*format "uri"/);
  });
});

describe('citations', () => {
  it('a 2026-07-28 run cites 2026-07-28 pages, moved ones where they moved; a check made for other revisions keeps its own', async () => {
    const only = [
      'tools/call/valid-arguments',
      'capabilities/logging/declared',
      'progress/notifications/known-token',
      'progress/requests/notifications',
      'logging/request-level/threshold',
      'schema/*',
      'transport/stdio/stdout-only-messages',
      'lifecycle/shutdown/stdin-close',
      'ping/respond',
    ];
    const report = await run(FAULTY, { ...STATELESS, ...QUICK, suite: await loadSuite({ only }) });
    const spec = (id: string) => report.checks.find((c) => c.id === id)?.requirement.spec;
    const ran = report.checks.filter((c) => c.status !== 'skip');
    expect(ran.map((c) => c.id)).toEqual(
      expect.arrayContaining([
        'tools/call/valid-arguments',
        'capabilities/logging/declared',
        'progress/notifications/known-token',
        'schema/results',
      ]),
    );
    expect(
      ran
        .filter((c) => !c.requirement.spec.startsWith('https://modelcontextprotocol.io/specification/2026-07-28/'))
        .map((c) => `${c.id} ${c.requirement.spec}`),
    ).toEqual([]);
    expect(spec('transport/stdio/stdout-only-messages')).toBe(
      'https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio',
    );
    expect(spec('lifecycle/shutdown/stdin-close')).toBe(
      'https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio',
    );
    // ping is gone from 2026-07-28: its check skips and cites the page it was made for.
    expect(spec('ping/respond')).toMatch(/\/specification\/2025-11-25\//);
  });
});

describe.concurrent('each fault of a process trips the check that targets it', () => {
  for (const { fault, check, expect: status, why: _why, tier: _tier, ...row } of ROWS) {
    it(`${fault} → ${check} ${status}`, async () => {
      const [faulty, clean] = await Promise.all([
        run(FAULTY, { ...row, ...QUICK, suite: await quickSuite(check, row), faults: fault }),
        quickSuite(check, row).then((suite) => run(FAULTY, { ...row, ...QUICK, suite })),
      ]);
      const result = faulty.checks.find((c) => c.id === check);
      expect(result?.status, result?.message).toBe(status);
      const control = clean.checks.find((c) => c.id === check);
      expect(control?.status, `${check} without the fault: ${control?.message}`).toBe('pass');
    });
  }
});
