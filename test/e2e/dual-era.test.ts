// The default revision, auto, on servers of one era and of both: the report layout, the verdicts and the exit code.
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/schema/generated/report.js';
import { FAULTY, REFERENCE, ROOT, runCli, statusOf } from '../helpers.js';

const FILES = ['badge.json', 'badge.svg', 'index.html', 'junit.xml', 'report.json', 'report.sarif'];
const ERAS = ['2026-07-28', '2025-11-25'];
const SERVER = join(REFERENCE, 'server.mjs');
/** A real dual-era server from npm, on the TypeScript SDK v2. */
const CONTEXT7 = join(ROOT, 'node_modules/@upstash/context7-mcp/dist/index.js');

const reportIn = async (dir: string) => JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as Report;
const fileIn = (dir: string, name: string) => readFile(join(dir, name), 'utf8');
/** Every check that neither passed nor was skipped, as `status id`. */
const findings = (report: Report) =>
  report.checks
    .filter((c) => c.status !== 'pass' && c.status !== 'skip')
    .map((c) => `${c.status} ${c.id}`)
    .sort();

/** The run's reports: each revision's from OUT/<revision>/, and the combined one from OUT/. */
async function perRevision(out: string) {
  const runs = await Promise.all(ERAS.map((era) => reportIn(join(out, era))));
  return { runs, combined: await reportIn(out) };
}

/**
 * The combined report and junit.xml in OUT/ hold each revision's checks, prefixed with the revision, and each
 * revision's server; the badge names the revisions that set its verdict (`badgeBy`).
 */
async function expectCombined(out: string, runs: readonly Report[], combined: Report, badgeBy: string) {
  expect((await readdir(out)).sort()).toEqual([...ERAS, ...FILES].sort());
  expect(combined.server).toBeUndefined();
  expect(combined.runs).toEqual(
    runs.map((r, i) => ({ prefix: ERAS[i], revision: ERAS[i], target: r.target, server: r.server })),
  );
  expect(combined.checks.map((c) => c.id)).toEqual(runs.flatMap((r, i) => r.checks.map((c) => `${ERAS[i]}/${c.id}`)));
  expect(findings(combined)).toEqual(
    runs.flatMap((r, i) => findings(r).map((f) => f.replace(' ', ` ${ERAS[i]}/`))).sort(),
  );
  const suites = [...(await fileIn(out, 'junit.xml')).matchAll(/<testsuite name="([^"]+)"/g)].map((m) => m[1]);
  expect(new Set(suites.map((s) => s.split('/')[0]))).toEqual(new Set(ERAS));
  expect(JSON.parse(await fileIn(out, 'badge.json'))).toMatchObject({ label: `MCP ${badgeBy}` });
  for (const era of ERAS) {
    expect((await readdir(join(out, era))).sort()).toEqual(FILES);
    expect(JSON.parse(await fileIn(join(out, era), 'badge.json'))).toMatchObject({ label: `MCP ${era}` });
  }
}

describe.concurrent('--revision auto, the default', () => {
  it('tests a dual-era server in both eras: a folder per revision, and all of them side by side in OUT', async () => {
    const r = await runCli(['--seed', '1', '--', process.execPath, SERVER, '--revision', 'all']);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('revisions   2026-07-28: pass · 2025-11-25: pass');
    const { runs, combined } = await perRevision(r.out);
    expect(runs.map((run) => run.server?.protocolVersion)).toEqual(ERAS);
    for (const run of runs) expect(run.summary).toMatchObject({ fail: 0, warn: 0, error: 0 });
    await expectCombined(r.out, runs, combined, '2026-07-28 + 2025-11-25');
  });

  it('reports a server of one era directly in OUT, as a run of that revision does', async () => {
    // The layout is what is tested here: a few checks make it (the reference server passes the whole suite in each
    // revision in test/e2e/faults.test.ts).
    const only = ['--only', 'lifecycle/**', '--only', 'base/jsonrpc/version'];
    const eras = [
      [[SERVER], '2025-11-25'],
      [[SERVER, '--revision', '2026-07-28'], '2026-07-28'],
    ] as const;
    const runs = await Promise.all(
      eras.map(([args]) => runCli(['--seed', '1', ...only, '--', process.execPath, ...args])),
    );
    for (const [i, [, era]] of eras.entries()) {
      const r = runs[i];
      expect(r.exitCode, r.stdout + r.stderr).toBe(0);
      expect((await readdir(r.out)).sort()).toEqual(FILES);
      expect(r.report?.server?.protocolVersion).toBe(era);
      expect(r.report?.checks.some((c) => c.id === 'base/jsonrpc/version')).toBe(true);
      expect(JSON.parse(await fileIn(r.out, 'badge.json'))).toMatchObject({ label: `MCP ${era}` });
      expect(r.stdout).not.toContain('revisions');
    }
  });

  // Generated tool calls are off: context7's tools fetch from context7.com, a live service a test must not depend on.
  it('tests context7 over stdio in both eras, each with its own verdicts; the exit code is the worse one', async () => {
    const r = await runCli(['--seed', '1', '--tool-calls', 'none', '--', process.execPath, CONTEXT7]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('revisions   2026-07-28: fail · 2025-11-25: pass');
    const { runs, combined } = await perRevision(r.out);
    expect(runs.map((run) => [run.server?.name, run.server?.protocolVersion])).toEqual(
      ERAS.map((era) => ['Context7', era]),
    );
    // Each a warning the SDK's server earns, its reason beside it; a change either way shows here.
    const sdkWarnings = [
      'warn base/error/message-concise', // multi-line (zod) error messages: "SHOULD be limited to a concise single sentence"
      'warn base/robustness/invalid-request', // valid JSON that is no request goes unanswered instead of -32600
      'warn base/robustness/malformed-json', // a line that is not JSON goes unanswered instead of -32700 (the same rule)
      'warn pagination/invalid-cursor', // an invalid cursor is ignored: "Invalid cursors SHOULD result in an error with code -32602"
      'warn resources/read/malformed-params', // resources/read without uri → -32603, not -32602
    ];
    expect(findings(runs[0])).toEqual(['fail stateless/version/unsupported', ...sdkWarnings].sort()); // 1900-01-01 answered, not -32022 (MUST)
    expect(findings(runs[1])).toEqual(sdkWarnings);
    await expectCombined(r.out, runs, combined, '2026-07-28');
    // The closing lines: each finding once, with the revisions it is found on, failures first (then in report order).
    const closing = r.stdout
      .slice(r.stdout.lastIndexOf('\nrevisions ') + 1)
      .split('\n')
      .slice(1, 7);
    expect([closing[0], ...closing.slice(1).sort()]).toEqual([
      'FAIL  stateless/version/unsupported  on 2026-07-28',
      ...sdkWarnings.map((w) => `WARN  ${w.slice('warn '.length)}  on 2026-07-28, 2025-11-25`),
    ]);
  });

  it('judges context7’s error messages by their own text: a long URI it quotes back is the request’s', async () => {
    const cases = await mkdtemp(join(tmpdir(), 'mcpc-cases-'));
    const uri = `http://mcp-conformance.invalid/${'long-path/'.repeat(40)}`;
    await writeFile(
      join(cases, 'long-uri.yaml'),
      [
        'id: echo/resources/long-uri',
        'title: A resources/read of an unknown, long URI gets an error',
        'requirement: { id: res.read.not-found, level: SHOULD, spec: "https://modelcontextprotocol.io/specification/2025-11-25/server/resources#error-handling", text: An unknown resource gets an error }',
        'steps:',
        `  - { request: resources/read, params: { uri: "${uri}" }, expect: { error: {} } }`,
        '',
      ].join('\n'),
    );
    const only = ['--only', 'echo/resources/long-uri', '--only', 'base/error/message-concise'];
    const r = await runCli(['--revision', '2025-11-25', '--cases', cases, ...only, '--', process.execPath, CONTEXT7]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    // Its answer is `Resource not found: <the URI>`, over 300 characters only by what the request sent.
    expect(JSON.stringify(r.report?.checks.find((c) => c.id === 'echo/resources/long-uri')?.transcript)).toContain(
      `Resource not found: ${uri}`,
    );
    expect(statusOf(r.report, 'base/error/message-concise')).toBe('pass');
  });
});

// After the runs above, not beside them: each is a whole run of the suite.
describe('--revision auto on a legacy server that answers server/discover', () => {
  it('tests a legacy server whose server/discover leaves 2026-07-28 out on the initialize wire only, and says why', async () => {
    const r = await runCli(['--seed', '1', '--env', 'MCP_FAULTS=legacy-discover', '--', process.execPath, FAULTY]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect((await readdir(r.out)).sort()).toEqual(FILES);
    expect(r.report?.server?.protocolVersion).toBe('2025-11-25');
    expect(r.report?.summary).toMatchObject({ fail: 0, warn: 0, error: 0 });
    const why =
      '2026-07-28 not run: server/discover lists supportedVersions ["2025-11-25","2025-06-18","2025-03-26"], without 2026-07-28; the server is tested on the initialize wire only';
    expect(r.stdout).toContain(`eras        ${why}`);
    const discover = r.report?.checks.find((c) => c.id === 'stateless/discover/result');
    expect([discover?.status, discover?.message]).toEqual(['skip', why]);
  });

  it('asks server/discover again in a fresh session when it was refused beside initialize, and tests both eras', async () => {
    const r = await runCli([
      '--seed',
      '1',
      '--env',
      'MCP_FAULTS=discover-after-initialize',
      '--env',
      'MCP_REVISION=all',
      '--',
      process.execPath,
      FAULTY,
    ]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('revisions   2026-07-28: pass · 2025-11-25: pass');
    const { runs } = await perRevision(r.out);
    expect(runs.map((run) => run.server?.protocolVersion)).toEqual(ERAS);
    for (const run of runs) expect(run.summary).toMatchObject({ fail: 0, warn: 0, error: 0 });
  });

  it('tests a server of the initialize wire that answers server/discover with an empty result there only, and says why', async () => {
    const r = await runCli([
      '--seed',
      '1',
      '--env',
      'MCP_FAULTS=discover-empty-result',
      '--',
      process.execPath,
      FAULTY,
    ]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.report?.server?.protocolVersion).toBe('2025-11-25');
    expect(r.stdout).toContain(
      'eras        2026-07-28 not run: server/discover was answered with a result that lists no supportedVersions (no DiscoverResult), and initialize was answered',
    );
  });

  it('says why 2026-07-28 was not run when the auto probe had no answer at all', async () => {
    const silent = ['--', process.execPath, '-e', 'setInterval(() => {}, 1000)'];
    const r = await runCli(['--timeout', '1', '--only', 'lifecycle/initialize/**', ...silent]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain(
      'eras        2026-07-28 not run: the auto probe had no answer to server/discover, nor to initialize, within --timeout; the server is tested on the initialize wire only',
    );
  });

  it('gives --revision 2026-07-28 on that server one failure naming the cause, and skips every other check with it', async () => {
    const r = await runCli([
      '--seed',
      '1',
      '--revision',
      '2026-07-28',
      '--env',
      'MCP_FAULTS=legacy-discover',
      '--',
      process.execPath,
      FAULTY,
    ]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(1);
    const checks = r.report?.checks ?? [];
    expect(checks.filter((c) => c.status !== 'pass' && c.status !== 'skip').map((c) => `${c.status} ${c.id}`)).toEqual([
      'fail stateless/discover/result',
    ]);
    expect(checks[0].message).toMatch(
      /^the server does not support 2026-07-28: server\/discover lists supportedVersions \["2025-11-25","2025-06-18","2025-03-26"\], without 2026-07-28/,
    );
    // Every check but the frame rules (which judge the frames seen, with their own reasons).
    const skipped = checks.filter((c) =>
      c.message.startsWith('not run: the server does not support 2026-07-28 (server/discover lists supportedVersions'),
    );
    expect(skipped.length).toBeGreaterThan(50);
    expect(statusOf(r.report, 'resources/read/unknown-uri')).toBe('skip');
  });
});
