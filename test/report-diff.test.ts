import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { diffReports, renderDiffMarkdown, renderDiffText } from '../src/report/diff.js';
import { summarize } from '../src/report/summary.js';
import type { CheckResult, Report, Status } from '../src/schema/generated/report.js';
import { cliHere, FAULTY, runCli } from './helpers.js';

let real: Report;
let dir: string;

/** The real run's report with these checks (id → status), each keeping a real check's shape. */
function report(statuses: Record<string, Status>, protocolVersion = real.server!.protocolVersion): Report {
  const checks: CheckResult[] = Object.entries(statuses).map(([id, status], i) => ({
    ...real.checks[i % real.checks.length],
    id,
    area: id.split('/')[0],
    status,
    message: `${id} is ${status}\nmore`,
  }));
  return { ...real, server: { ...real.server!, protocolVersion }, checks, summary: summarize(checks) };
}

async function save(path: string, r: Report): Promise<string> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, JSON.stringify(r));
  return path;
}

/** `mcp-conformance diff` in this process: it starts no server. */
const diffCli = (args: string[]) => cliHere(['diff', ...args]);

beforeAll(async () => {
  const run = await runCli([
    '--seed',
    '1',
    '--runs',
    '10',
    '--only',
    'base/method-not-found',
    '--only',
    'ping/respond',
    FAULTY,
  ]);
  real = run.report!;
  dir = await mkdtemp(join(tmpdir(), 'mcpc-diff-'));
});

const OLD = {
  'a/fails-now': 'pass',
  'a/fixed': 'fail',
  'a/warns-now': 'pass',
  'a/better': 'warn',
  'a/same': 'fail',
  'a/gone': 'pass',
  'a/stopped-applying': 'pass',
} as const;
const NEW = {
  'a/fails-now': 'fail',
  'a/fixed': 'pass',
  'a/warns-now': 'warn',
  'a/better': 'pass',
  'a/same': 'fail',
  'a/added': 'pass',
  'a/added-failing': 'fail',
  'a/stopped-applying': 'skip',
} as const;

describe('diffing two reports', () => {
  it('sorts every check that changed into one list, and is worse on a new failure or a status that moved down', () => {
    const d = diffReports({ source: 'old', report: report(OLD) }, { source: 'new', report: report(NEW) });
    const ids = (list: { id: string; was?: Status; now?: Status }[]) =>
      list.map((c) => `${c.id} ${c.was ?? '-'}→${c.now ?? '-'}`);
    expect(ids(d.newFailures)).toEqual(['a/fails-now pass→fail', 'a/added-failing -→fail']);
    expect(ids(d.fixed)).toEqual(['a/fixed fail→pass']);
    expect(ids(d.changed)).toEqual(['a/warns-now pass→warn', 'a/better warn→pass', 'a/stopped-applying pass→skip']);
    expect(ids(d.added)).toEqual(['a/added -→pass']);
    expect(ids(d.gone)).toEqual(['a/gone pass→-']);
    expect(d.worse).toBe(true);
    expect(d.newFailures[0]).toMatchObject({ requirement: real.checks[0].requirement, message: 'a/fails-now is fail' });
    // Only a warning that went away, a check that stopped applying: not worse.
    const calm = diffReports(
      { source: 'o', report: report({ 'a/x': 'warn', 'a/y': 'pass' }) },
      { source: 'n', report: report({ 'a/x': 'pass', 'a/y': 'skip' }) },
    );
    expect(calm.worse).toBe(false);
    expect(renderDiffText(calm)).toMatch(
      /\nBETTER: 0 new failures, 0 fixed, 2 status changes, 0 added checks, 0 gone checks\n$/,
    );
    // A warning that appeared is worse, though nothing fails.
    expect(
      diffReports(
        { source: 'o', report: report({ 'a/x': 'pass' }) },
        { source: 'n', report: report({ 'a/x': 'warn' }) },
      ).worse,
    ).toBe(true);
  });

  it('renders Markdown with each check, its statuses, its requirement linked to the spec, and server text escaped', () => {
    const hostile = report({ 'a/x': 'fail' });
    hostile.checks[0] = { ...hostile.checks[0], title: '<img src=x> | *t*', message: '[click](javascript:alert(1)) |' };
    const md = renderDiffMarkdown(
      diffReports({ source: 'main', report: report({ 'a/x': 'pass' }) }, { source: 'pr', report: hostile }),
    );
    expect(md).toMatch(/^## ❌ MCP conformance: what changed\n/);
    expect(md).toContain('### New failures (1)');
    const row = md.split('\n').find((line) => line.startsWith('| `a/x`'))!;
    expect(row).toContain(
      `| PASS | FAIL | [${real.checks[0].requirement.id.replace(/[.-]/g, '\\$&')}](${real.checks[0].requirement.spec}) (${real.checks[0].requirement.level}) |`,
    );
    expect(row).toContain('&lt;img src\\=x&gt; \\| \\*t\\*');
    expect(row).toContain('\\[click\\]\\(javascript\\:alert\\(1\\)\\) \\|');
    expect(row).not.toContain('<img');
  });
});

describe.concurrent('mcp-conformance diff', () => {
  it('exits 1 when something got worse, 0 when not, in each format', async () => {
    const [a, b] = [
      await save(join(dir, 'a/report.json'), report(OLD)),
      await save(join(dir, 'b/report.json'), report(NEW)),
    ];
    const text = await diffCli([a, b]);
    expect(text.exitCode, text.stderr).toBe(1);
    expect(text.stdout).toContain('New failures (2)\n  PASS  → FAIL   a/fails-now');
    expect(text.stdout).toMatch(/\nWORSE: 2 new failures, 1 fixed, 3 status changes, 1 added checks, 1 gone checks$/);
    const json = await diffCli([join(dir, 'a'), join(dir, 'b'), '--format', 'json']);
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      worse: true,
      old: { source: join(dir, 'a'), verdict: 'fail' },
      fixed: [{ id: 'a/fixed', was: 'fail', now: 'pass' }],
    });
    const md = await diffCli([b, a, '--format', 'markdown']);
    expect(md.exitCode).toBe(1); // the other way round, a/fixed fails again
    expect(md.stdout).toContain('### New failures (1)');
    const same = await diffCli([a, a]);
    expect(same.exitCode).toBe(0);
    expect(same.stdout).toMatch(/\nSAME: 0 new failures/);
  });

  it('merges a folder of shards, and a folder of one report per revision, as the report command does', async () => {
    const whole = report({ 'a/one': 'pass', 'a/two': 'fail' });
    const shards = join(dir, 'shards');
    await save(join(shards, '1/report.json'), {
      ...whole,
      checks: [whole.checks[0]],
      summary: summarize([whole.checks[0]]),
    });
    await save(join(shards, '2/report.json'), {
      ...whole,
      checks: [whole.checks[1]],
      summary: summarize([whole.checks[1]]),
    });
    const one = await save(join(dir, 'whole.json'), whole);
    const r = await diffCli([one, shards]);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/SAME: 0 new failures, 0 fixed, 0 status changes, 0 added checks, 0 gone checks/);
    // Eras: each revision's checks under its own prefix, as a run of several revisions writes them side by side.
    const eras = join(dir, 'eras');
    await save(join(eras, '2025-11-25/report.json'), report({ 'a/one': 'pass' }, '2025-11-25'));
    await save(join(eras, '2026-07-28/report.json'), report({ 'a/one': 'pass' }, '2026-07-28'));
    const erasNow = join(dir, 'eras-now');
    await save(join(erasNow, '2025-11-25/report.json'), report({ 'a/one': 'pass' }, '2025-11-25'));
    await save(join(erasNow, '2026-07-28/report.json'), report({ 'a/one': 'fail' }, '2026-07-28'));
    const e = await diffCli([eras, erasNow]);
    expect(e.exitCode).toBe(1);
    expect(e.stdout).toContain('New failures (1)\n  PASS  → FAIL   2026-07-28/a/one');
  });

  it('exits 2 naming a bad input', async () => {
    expect((await diffCli([join(dir, 'none.json'), join(dir, 'none.json')])).stderr).toContain(
      'none.json: cannot read it (ENOENT)',
    );
    const empty = await mkdtemp(join(tmpdir(), 'mcpc-diff-empty-'));
    const r = await diffCli([empty, empty]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim()).toBe(`mcp-conformance: ${empty}: no report.json in it or in its subfolders`);
    expect((await diffCli([empty])).stderr).toContain('diff takes two reports, OLD and NEW, not 1');
    expect((await diffCli([empty, empty, '--format', 'xml'])).stderr).toContain(
      '--format takes console, json, markdown, not "xml"',
    );
  });
});
