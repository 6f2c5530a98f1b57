import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import _Ajv2020 from 'ajv/dist/2020.js';
import _addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeReports } from '../src/report/merge.js';
import { formatTotals, summarize } from '../src/report/summary.js';
import type { CheckResult, Report } from '../src/schema/generated/report.js';
import { cliHere, FAULTY, runCli } from './helpers.js';

// CommonJS modules with `exports.default` (as in src/schema/validators.ts).
const Ajv2020 = _Ajv2020.default;
const addFormats = _addFormats.default;

let original: Report;
let dir: string;
let validate: (value: unknown) => boolean;

/** A valid report holding some of the original's checks, as a shard of the same run would be. */
function shard(checks: CheckResult[], startOffsetMs = 0): Report {
  return {
    ...original,
    startedAt: new Date(Date.parse(original.startedAt) + startOffsetMs).toISOString(),
    durationMs: 100,
    summary: summarize(checks),
    checks,
  };
}

const byId = (checks: readonly CheckResult[]) => [...checks].sort((a, b) => a.id.localeCompare(b.id));

/** The `report` and `badge` commands in this process: they start no server. */
const cli = (args: string[]) => cliHere(args);

beforeAll(async () => {
  // A real run with a failure and a warning.
  const run = await runCli(['--env', 'MCP_FAULTS=string-ids,bad-tool-name', FAULTY]);
  expect(run.report?.summary.fail).toBeGreaterThan(0);
  expect(run.report?.summary.warn).toBeGreaterThan(0);
  original = run.report!;
  dir = await mkdtemp(join(tmpdir(), 'mcp-merge-'));
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictSchema: false });
  addFormats(ajv);
  validate = ajv.compile(JSON.parse(await readFile(new URL('../schema/report.schema.json', import.meta.url), 'utf8')));
});
afterAll(() => dir && rm(dir, { recursive: true, force: true }));

describe('merging shards of one run', () => {
  it('gives back the original checks and summary from two halves, however they were split', () => {
    const { checks } = original;
    const half = Math.ceil(checks.length / 2);
    const contiguous = mergeReports([
      { source: 'a.json', report: shard(checks.slice(0, half)) },
      { source: 'b.json', report: shard(checks.slice(half)) },
    ]);
    expect(contiguous.notes).toEqual([]);
    expect(contiguous.report.checks).toEqual(checks);
    expect(contiguous.report.summary).toEqual(original.summary);
    expect(contiguous.report.server).toEqual(original.server);
    expect(validate(contiguous.report)).toBe(true);

    // Round-robin, as a shard by hash would be: the same checks and verdicts, in another order.
    const interleaved = mergeReports([
      { source: 'a.json', report: shard(checks.filter((_, i) => i % 2 === 0)) },
      { source: 'b.json', report: shard(checks.filter((_, i) => i % 2 === 1)) },
    ]).report;
    expect(byId(interleaved.checks)).toEqual(byId(checks));
    expect(interleaved.summary).toEqual(original.summary);
  });

  it('spans the time of all shards and keeps any strict or interrupted flag', () => {
    const { report } = mergeReports([
      { source: 'a', report: shard(original.checks.slice(0, 3), 0) },
      { source: 'b', report: { ...shard(original.checks.slice(3), 1000), strict: true, interrupted: true } },
    ]);
    expect(report.startedAt).toBe(original.startedAt);
    expect(report.durationMs).toBe(1100);
    expect(report).toMatchObject({ strict: true, interrupted: true });
  });

  it('keeps one copy of a check both shards report alike, and the worse of two different verdicts, with a note', () => {
    const [a, b, c] = original.checks.filter((x) => x.status === 'pass');
    const { report, notes } = mergeReports([
      { source: 'one.json', report: shard([a, { ...b, status: 'skip', message: 'skipped here' }, c]) },
      { source: 'two.json', report: shard([a, b, { ...c, status: 'fail', message: 'broke here' }]) },
    ]);
    expect(report.checks.map((x) => [x.id, x.status])).toEqual([
      [a.id, 'pass'],
      [b.id, 'pass'], // a skip never hides a verdict
      [c.id, 'fail'],
    ]);
    expect(report.checks[2].message).toBe(`broke here (merged: one.json had pass: ${c.message})`);
    expect(report.checks[1].message).toBe(`${b.message} (merged: one.json had skip: skipped here)`);
    expect(notes).toEqual([
      `${b.id}: pass in two.json, skip in one.json; kept pass`,
      `${c.id}: fail in two.json, pass in one.json; kept fail`,
    ]);
    expect(report.summary).toEqual({ pass: 2, fail: 1, warn: 0, skip: 0, error: 0 });
  });
});

describe('merging reports of different servers', () => {
  it('prefixes every id and area with a slug of its server, drops the single server, and validates', () => {
    const other: Report = {
      ...shard(original.checks.slice(0, 2)),
      server: { ...original.server!, name: 'Other Server!' },
    };
    const same: Report = { ...shard(original.checks.slice(0, 1)), server: { ...original.server!, version: '2.0.0' } };
    const { report, notes } = mergeReports([
      { source: 'a', report: original },
      { source: 'b', report: other },
      { source: 'c', report: same },
    ]);
    expect(notes).toEqual([]);
    expect(report.server).toBeUndefined();
    expect(report.checks).toHaveLength(original.checks.length + 3);
    const [first] = original.checks;
    expect(report.checks.map((c) => c.id)).toEqual([
      ...original.checks.map((c) => `mcp-reference-server/${c.id}`),
      `other-server/${first.id}`,
      `other-server/${original.checks[1].id}`,
      `mcp-reference-server-2/${first.id}`,
    ]);
    expect(report.checks.at(-1)!.area).toBe(`mcp-reference-server-2/${first.area}`);
    expect(report.target.description).toContain('other-server: Other Server! 1.0.0, revision 2025-11-25 (');
    expect(report.target.description).toContain('mcp-reference-server-2: mcp-reference-server 2.0.0');
    const summary = summarize(report.checks);
    expect(report.summary).toEqual(summary);
    expect(summary.fail).toBe(original.summary.fail);
    // Each server's own facts, for the renderers to show the servers as one report: no revision, as they are servers.
    expect(report.runs).toEqual([
      { prefix: 'mcp-reference-server', target: original.target, server: original.server },
      { prefix: 'other-server', target: other.target, server: other.server },
      { prefix: 'mcp-reference-server-2', target: same.target, server: same.server },
    ]);
    expect(validate(report)).toBe(true);
  });

  it("tells one server's revisions apart by revision (the folders of a --revision auto run)", () => {
    const stateless: Report = {
      ...shard(original.checks.slice(0, 1)),
      server: { ...original.server!, protocolVersion: '2026-07-28' },
    };
    const { report } = mergeReports([
      { source: 'OUT/2026-07-28/report.json', report: stateless },
      { source: 'OUT/2025-11-25/report.json', report: shard(original.checks.slice(0, 1)) },
    ]);
    expect(report.checks.map((c) => c.id)).toEqual([
      `2026-07-28/${original.checks[0].id}`,
      `2025-11-25/${original.checks[0].id}`,
    ]);
    expect(report.runs?.map((r) => [r.prefix, r.revision, r.server?.protocolVersion])).toEqual([
      ['2026-07-28', '2026-07-28', '2026-07-28'],
      ['2025-11-25', '2025-11-25', '2025-11-25'],
    ]);
    expect(validate(report)).toBe(true);
  });

  it('prefixes the cause a check names, like its id', () => {
    const [cause, follower] = original.checks;
    const withCause: Report = {
      ...shard([cause, { ...follower, after: cause.id }]),
      server: { ...original.server!, protocolVersion: '2026-07-28' },
    };
    const { report } = mergeReports([
      { source: 'a', report: withCause, label: '2026-07-28', revision: '2026-07-28' },
      { source: 'b', report: shard([cause]), label: '2025-11-25', revision: '2025-11-25' },
    ]);
    expect(report.checks[1].after).toBe(`2026-07-28/${cause.id}`);
  });

  it('keeps the runs of a report merged again beside another, under its prefix', () => {
    const eras = mergeReports([
      {
        source: 'a',
        report: {
          ...shard(original.checks.slice(0, 1)),
          server: { ...original.server!, protocolVersion: '2026-07-28' },
        },
      },
      { source: 'b', report: shard(original.checks.slice(0, 1)) },
    ]).report;
    const { report } = mergeReports([
      { source: 'eras', report: eras, label: 'eras' },
      { source: 'other', report: shard(original.checks.slice(0, 1)), label: 'other' },
    ]);
    expect(report.runs?.map((r) => r.prefix)).toEqual(['eras/2026-07-28', 'eras/2025-11-25', 'other']);
    expect(
      report.checks.map((c) => c.id.split('/').slice(0, -original.checks[0].id.split('/').length).join('/')),
    ).toEqual(['eras/2026-07-28', 'eras/2025-11-25', 'other']);
    expect(validate(report)).toBe(true);
  });
});

describe.concurrent('mcp-conformance report with several files', () => {
  it('writes the merged report, which equals the unsplit run', async () => {
    const half = Math.ceil(original.checks.length / 2);
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    await writeFile(a, JSON.stringify(shard(original.checks.slice(0, half))));
    await writeFile(b, JSON.stringify(shard(original.checks.slice(half))));
    const out = join(dir, 'merged');
    const r = await cli(['report', a, b, '--out', out]);
    expect(r.exitCode, r.stderr).toBe(1); // the run failed, so does its merged re-render
    expect(r.stdout).toContain(`FAIL  ${formatTotals(original.summary)}`);
    const merged = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
    expect(merged.checks).toEqual(original.checks);
    expect(merged.summary).toEqual(original.summary);
  });

  it('names an invalid input file in one line and exits 2, writing nothing', async () => {
    const good = join(dir, 'good.json');
    const bad = join(dir, 'bad.json');
    await writeFile(good, JSON.stringify(original));
    await writeFile(bad, JSON.stringify({ ...original, checks: [{ ...original.checks[0], status: 'maybe' }] }));
    const out = join(dir, 'never');
    const r = await cli(['report', good, bad, '--out', out]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(
      `${bad}: not a report.json (/checks/0/status must be one of "pass", "fail", "warn", "skip", "error")`,
    );
    await expect(readFile(join(out, 'report.json'))).rejects.toThrow();

    await writeFile(bad, '{"tool": ');
    expect((await cli(['report', bad])).stderr).toMatch(new RegExp(`${bad}: not JSON \\(`));
    expect((await cli(['badge', join(dir, 'missing.json')])).stderr).toContain(
      `${join(dir, 'missing.json')}: cannot read it (ENOENT)`,
    );
  });
});
