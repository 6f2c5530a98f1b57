import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { parse, type TestCase, type TestSuites } from 'junit2json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report, Status } from '../../src/schema/generated/report.js';
import { CLI, FAULTY, runCli, type CliRun } from '../helpers.js';

const FILES = ['badge.json', 'badge.svg', 'index.html', 'junit.xml', 'report.json', 'report.sarif'];

let run: CliRun;
let dir: string;

async function cli(args: string[]) {
  const r = await execa(process.execPath, [CLI, ...args], { reject: false, env: { NO_COLOR: '1' } });
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/** `report` with every check's status changed by `to`, saved as a file. */
async function variant(name: string, to: (status: Status) => Status): Promise<string> {
  const report: Report = { ...run.report!, checks: run.report!.checks.map((c) => ({ ...c, status: to(c.status) })) };
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(report));
  return path;
}

beforeAll(async () => {
  // A real failing run in which the harness also could not judge some checks: the budget ends before the slow ping.
  run = await runCli(['--budget', '2', '--env', 'MCP_FAULTS=slow-ping,string-ids', FAULTY]);
  expect(run.report?.summary.fail).toBeGreaterThan(0);
  expect(run.report?.summary.error).toBeGreaterThan(0);
  dir = await mkdtemp(join(tmpdir(), 'mcp-rerender-'));
});
afterAll(() => dir && rm(dir, { recursive: true, force: true }));

describe.concurrent('mcp-conformance report', () => {
  it('writes all five reports every run', async () => {
    expect((await readdir(run.out)).sort()).toEqual(FILES);
  });

  it('re-renders byte for byte what the run wrote, with the run exit code', async () => {
    const out = join(dir, 'again');
    const r = await cli(['report', join(run.out, 'report.json'), '--out', out]);
    expect(r.exitCode, r.stderr).toBe(run.exitCode);
    expect(run.exitCode).toBe(1);
    expect(r.stdout).toMatch(/^FAIL {2}\d+ checks: /);
    expect((await readdir(out)).sort()).toEqual(FILES);
    for (const file of FILES)
      expect(await readFile(join(out, file), 'utf8'), file).toBe(await readFile(join(run.out, file), 'utf8'));
  });

  it('writes JUnit that a JUnit consumer reads with failures as failures and harness errors as errors', async () => {
    const junit = (await parse(await readFile(join(run.out, 'junit.xml'), 'utf8'))) as TestSuites;
    const cases = (junit.testsuite ?? []).flatMap((s) => s.testcase ?? []);
    const ids = (has: (c: TestCase) => boolean) =>
      cases
        .filter(has)
        .map((c) => c.name)
        .sort();
    const withStatus = (status: Status) =>
      run
        .report!.checks.filter((c) => c.status === status)
        .map((c) => c.id)
        .sort();
    expect(cases).toHaveLength(run.report!.checks.length);
    expect(ids((c) => c.failure !== undefined)).toEqual(withStatus('fail'));
    expect(ids((c) => c.error !== undefined)).toEqual(withStatus('error'));
    expect(ids((c) => c.skipped !== undefined)).toEqual(withStatus('skip'));
    expect(junit).toMatchObject({
      tests: run.report!.checks.length,
      failures: run.report!.summary.fail,
      errors: run.report!.summary.error,
    });
    const error = cases.find((c) => c.error)!.error![0];
    expect(error.type).toBe('error');
    expect(error.message).toMatch(/budget/);
  });

  it('answers --help, and refuses no file or an unknown option with exit 2', async () => {
    const help = await cli(['report', '--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('Usage: mcp-conformance report <report.json>...');
    const none = await cli(['report']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr.trim()).toBe('mcp-conformance: no report.json given (see --help)');
    const unknown = await cli(['badge', '--frobnicate', join(run.out, 'report.json')]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('frobnicate');
  });
});

describe.concurrent('mcp-conformance badge', () => {
  const cases: [string, (s: Status) => Status, number, RegExp][] = [
    ['failing.json', (s) => s, 1, /^badge {2}MCP 2025-11-25: \d+ failing$/m],
    ['passing.json', () => 'pass', 0, /^badge {2}MCP 2025-11-25: conformant$/m],
    ['error.json', (s) => (s === 'error' ? s : 'pass'), 2, /^badge {2}MCP 2025-11-25: error$/m],
  ];
  for (const [name, to, code, line] of cases) {
    it(`renders only the badge of ${name} and exits ${code}`, async () => {
      const out = join(dir, `badge-${name}`);
      const r = await cli(['badge', await variant(name, to), '--out', out]);
      expect(r.exitCode, r.stderr).toBe(code);
      expect(r.stdout).toMatch(line);
      expect((await readdir(out)).sort()).toEqual(['badge.json', 'badge.svg']);
      const json = JSON.parse(await readFile(join(out, 'badge.json'), 'utf8')) as { message: string };
      expect(await readFile(join(out, 'badge.svg'), 'utf8')).toContain(`>${json.message}</text>`);
    });
  }
});
