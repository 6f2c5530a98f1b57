import { describe, expect, it } from 'vitest';
import { loadSuite, type Suite } from '../../src/suite/suite.js';
import { REVISIONS } from '../../src/schema/validators.js';
import type { Report } from '../../src/schema/generated/report.js';
import { resolveTarget } from '../../src/target/resolve.js';
import { DISABLED, FAULT_ROWS, NO_TASKS, STATELESS } from '../fixtures/servers/faults.mjs';
import { FAULTY, REFERENCE } from '../helpers.js';
import { runSuiteWith } from '../suite-run.js';

type Options = { timeoutMs?: number; env?: Record<string, string>; revision?: string; suite?: Suite; runs?: number; seed?: number; with?: string[] };
type Row = [fault: string, check: string | null, status: 'fail' | 'warn' | null, why: string, options?: Options];
/** The rows of test/fixtures/servers/faults.mjs that this file proves (the others name the test that does). */
const ROWS = (FAULT_ROWS as Row[]).filter((row): row is [string, string, 'fail' | 'warn', string, Options?] => row[1] !== null);
/**
 * A fault row's generated values: few, from one seed, so that a row trips the same way on every run. Enough that each
 * property reaches every tool of the reference server (a fault of one tool shows only in calls of that tool); the
 * reference server's own runs below keep the default count and a random seed.
 */
const QUICK = { runs: 25, seed: 1 };

async function run(target: string, { timeoutMs = 5000, env = {}, revision, suite, runs, seed }: Options = {}): Promise<Report> {
  const plan = await resolveTarget({ target, env });
  return runSuiteWith({ plan, timeoutMs, budgetMs: 60_000, protocolVersion: revision, suite, runs, seed });
}

/**
 * What a fault row runs: the check it targets, and the checks its row names `with` (a passive rule judges the frames
 * other checks' requests bring; a check that runs last judges the shared server after them). The whole suite would
 * bring those frames too, at many times the cost.
 */
const quickSuite = (check: string, options: Options = {}): Promise<Suite> => loadSuite({ only: [check, ...(options.with ?? [])] });

/**
 * The narrow run of a row without its fault, once per check and options: it must not trip, so that a row's verdict
 * comes from the fault and not from the check running alone (or beside the checks it needs).
 */
const cleanRuns = new Map<string, Promise<Report>>();
function cleanRun(check: string, options: Options = {}): Promise<Report> {
  const key = JSON.stringify([check, options]);
  if (!cleanRuns.has(key)) cleanRuns.set(key, quickSuite(check, options).then((suite) => run(FAULTY, { ...options, ...QUICK, suite })));
  return cleanRuns.get(key)!;
}

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
    const bad = reports.flatMap((r) => r.checks.filter((c) => !['pass', 'skip'].includes(c.status)).map((c) => `${r.server?.protocolVersion} ${c.id}: ${c.status} ${c.message}`));
    expect(bad).toEqual([]);
    const passed = new Set(reports.flatMap((r) => r.checks.filter((c) => c.status === 'pass').map((c) => c.id)));
    // The Streamable HTTP checks pass over HTTP: test/e2e/http.test.ts (the stateless wire's: http-stateless.test.ts).
    expect([...checks, ...frameRules].filter((c) => c.transport !== 'http').map((c) => c.id).filter((id) => !passed.has(id))).toEqual([]);
  });
});

describe('cancellation without progress', () => {
  it('cancels the slowest call a quarter of its time in, and passes on a server that honours it (progress-quiet)', async () => {
    const check = 'cancellation/request/no-response';
    const report = await run(FAULTY, { ...QUICK, suite: await quickSuite(check), env: { MCP_FAULTS: 'progress-quiet' } });
    const result = report.checks.find((c) => c.id === check);
    expect(result?.status, result?.message).toBe('pass');
    expect(result?.message).toMatch(/^tools\/call count-slowly was cancelled \d+ ms in and got no response/);
  });
});

describe.concurrent('values the suite supplies, and formats', () => {
  const verdicts = async (fault: string, options: Options = {}, also: string[] = []) => {
    const suite = await loadSuite({ only: ['prompts/get/listed', 'schema/results', ...also] });
    const report = await run(FAULTY, { ...options, ...QUICK, suite, env: { ...options.env, MCP_FAULTS: fault } });
    return report.checks.map((c) => `${c.id}: ${c.status} ${c.message}`);
  };
  for (const [era, options] of [['2025-11-25', {}], ['2026-07-28', STATELESS]] as const) {
    it(`fills a required argument that names a URI with a URI, so a prompt that embeds it passes (embed-uri-argument, ${era})`, async () => {
      const lines = await verdicts('embed-uri-argument', options);
      expect(lines.filter((l) => !/: (pass|skip) /.test(l))).toEqual([]);
      expect(lines.find((l) => l.startsWith('prompts/get/listed'))).toMatch(/: pass \d+ prompt/);
    });
  }
  it('warns on a format finding alone and names the format, where prompts/get/listed and tools/call/valid-arguments pass (resource-uri-no-scheme)', async () => {
    const lines = await verdicts('resource-uri-no-scheme', {}, ['tools/call/valid-arguments']);
    expect(lines.find((l) => l.startsWith('prompts/get/listed'))).toMatch(/^prompts\/get\/listed: pass /);
    expect(lines.find((l) => l.startsWith('tools/call/valid-arguments'))).toMatch(/^tools\/call\/valid-arguments: pass /);
    expect(lines.find((l) => l.startsWith('schema/results'))).toMatch(/^schema\/results: warn .*format "uri"/);
  });
});

describe('citations', () => {
  it('a 2026-07-28 run cites 2026-07-28 pages, moved ones where they moved; a check made for other revisions keeps its own', async () => {
    const only = ['tools/call/valid-arguments', 'capabilities/logging/declared', 'progress/notifications/known-token', 'progress/requests/notifications', 'logging/request-level/threshold', 'schema/*', 'transport/stdio/stdout-only-messages', 'lifecycle/shutdown/stdin-close', 'ping/respond'];
    const report = await run(FAULTY, { ...STATELESS, ...QUICK, suite: await loadSuite({ only }) });
    const spec = (id: string) => report.checks.find((c) => c.id === id)?.requirement.spec;
    const ran = report.checks.filter((c) => c.status !== 'skip');
    expect(ran.map((c) => c.id)).toEqual(expect.arrayContaining(['tools/call/valid-arguments', 'capabilities/logging/declared', 'progress/notifications/known-token', 'schema/results']));
    expect(ran.filter((c) => !c.requirement.spec.startsWith('https://modelcontextprotocol.io/specification/2026-07-28/')).map((c) => `${c.id} ${c.requirement.spec}`)).toEqual([]);
    expect(spec('transport/stdio/stdout-only-messages')).toBe('https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio');
    expect(spec('lifecycle/shutdown/stdin-close')).toBe('https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio');
    // ping is gone from 2026-07-28: its check skips and cites the page it was made for.
    expect(spec('ping/respond')).toMatch(/\/specification\/2025-11-25\//);
  });
});

describe.concurrent('each fault trips the check that targets it', () => {
  it('covers every check with at least one fault', async () => {
    const { checks, frameRules } = await loadSuite();
    const covered = new Set(ROWS.map((f) => f[1]));
    // The Streamable HTTP checks have their faults in test/e2e/http.test.ts (the stateless wire's: http-stateless.test.ts).
    expect([...checks, ...frameRules].filter((c) => c.transport !== 'http').map((c) => c.id).filter((id) => !covered.has(id))).toEqual([]);
  });
  for (const [fault, check, status, , options] of ROWS) {
    it(`${fault} → ${check} ${status}`, async () => {
      const [faulty, clean] = await Promise.all([
        run(FAULTY, { ...options, ...QUICK, suite: await quickSuite(check, options), env: { ...options?.env, MCP_FAULTS: fault } }),
        cleanRun(check, options),
      ]);
      const result = faulty.checks.find((c) => c.id === check);
      expect(result?.status, result?.message).toBe(status);
      // A passive rule may see no frame of its kind from a server without the fault: it skips.
      const control = clean.checks.find((c) => c.id === check);
      const passes = (await loadSuite({ only: [check] })).frameRules.length > 0 ? ['pass', 'skip'] : ['pass'];
      expect(passes, `${check} without the fault: ${control?.status} ${control?.message}`).toContain(control?.status);
    });
  }
});
