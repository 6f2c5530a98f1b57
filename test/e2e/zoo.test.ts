import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { execa } from 'execa';
import { parse, type TestSuites } from 'junit2json';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/schema/generated/report.js';
import { isAlive } from '../../src/transport/process-tree.js';
import { BUDGET_S, LIMITS, ZOO, ZOO_SERVER } from '../fixtures/servers/zoo/zoo.mjs';
import { CLI, ROOT, runCli } from '../helpers.js';

const ajv = new Ajv2020({ allErrors: true, strictSchema: false });
addFormats(ajv);
ajv.addKeyword('tsType');
const validReport = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schema/report.schema.json'), 'utf8')));

/** Every process on the machine whose environment carries `mark`: the server, and whatever it spawned. */
function marked(mark: string): number[] {
  return readdirSync('/proc').filter((n) => /^\d+$/.test(n)).flatMap((n) => {
    try {
      return readFileSync(`/proc/${n}/environ`, 'latin1').includes(mark) ? [Number(n)] : [];
    } catch {
      return [];
    }
  }).filter(isAlive);
}

// One hostile server after another: each run starts processes that misbehave on purpose, and the machine is small.
describe('the zoo: every hostile server gets a finished run, valid reports, the right verdict and no survivors', () => {
  for (const z of ZOO) {
    it(`${z.name} → ${z.check} ${z.status}`, async () => {
      const mark = `ZOO_MARK=${randomUUID()}`;
      const t0 = performance.now();
      const run = await runCli(['--env', mark, ...z.args]);
      const seconds = (performance.now() - t0) / 1000;
      const report = run.report as Report;

      expect(seconds).toBeLessThan(BUDGET_S + 10);
      // 1 for a failing server, 0 for one that only warns; never 2, the harness's own trouble.
      expect([0, 1], run.stderr).toContain(run.exitCode);
      expect(validReport(report), ajv.errorsText(validReport.errors)).toBe(true);
      const junit = (await parse(await readFile(join(run.out, 'junit.xml'), 'utf8'))) as TestSuites;
      expect(junit.tests).toBe(report.checks.length);

      const check = report.checks.find((c) => c.id === z.check);
      expect(check?.status, check?.message).toBe(z.status);
      expect(check?.message).toMatch(z.message);
      // A hostile server is the server's fault: nothing it does may pass for a harness error, except the budget running out.
      expect(report.checks.filter((c) => c.status === 'error' && !c.message.startsWith('run budget')).map((c) => `${c.id}: ${c.message}`)).toEqual([]);
      expect(marked(mark)).toEqual([]);
    });
  }

  it('keeps a large frame as a hashed prefix, and a flood as a bounded transcript', async () => {
    const entries = async (name: string) => {
      const run = await runCli(ZOO.find((z) => z.name === name)!.args);
      return run.report!.checks.flatMap((c) => c.transcript ?? []);
    };
    const huge = (await entries('huge-line')).filter((e) => e.bytes > 50 * 1024 * 1024);
    expect(huge.length).toBeGreaterThan(0);
    for (const e of huge) expect([e.truncated, e.text.length <= 4096, e.sha256]).toEqual([true, true, expect.stringMatching(/^[0-9a-f]{16}$/)]);
    expect((await entries('flood')).some((e) => e.dir === 'event' && e.text.startsWith('transcript full'))).toBe(true);
  });

  it('Ctrl-C mid-run stops the server tree, writes the partial reports marked interrupted, and exits 130', async () => {
    const mark = `ZOO_MARK=${randomUUID()}`;
    const out = await mkdtemp(join(tmpdir(), 'mcpc-'));
    // hang-ping keeps the run busy until its budget: long enough to interrupt it.
    const args = ZOO.find((z) => z.name === 'hang-ping')!.args;
    const cli = execa(process.execPath, [CLI, '--out', out, '--env', mark, ...args], { reject: false, env: { GITHUB_ACTIONS: '', NO_COLOR: '1' } });
    for (let i = 0; i < 100 && marked(mark).length === 0; i++) await sleep(100);
    await sleep(1500);
    const t0 = performance.now();
    cli.kill('SIGINT');
    const r = await cli;
    expect(performance.now() - t0).toBeLessThan(15_000);
    expect(r.exitCode, String(r.stderr)).toBe(130);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
    expect(validReport(report), ajv.errorsText(validReport.errors)).toBe(true);
    expect(report.interrupted).toBe(true);
    expect(report.checks.some((c) => c.status === 'error' && c.message === 'run interrupted before this check finished')).toBe(true);
    expect(((await parse(await readFile(join(out, 'junit.xml'), 'utf8'))) as TestSuites).tests).toBe(report.checks.length);
    expect(String(r.stdout)).toContain('interrupted');
    expect(marked(mark)).toEqual([]);
  });
});

describe('a server whose every string is hostile, and which echoes a secret from its environment', () => {
  const SECRET = 'tok-s3cret-4711';
  // One run, read by both tests: the reports, the console, and the GitHub step summary and outputs.
  const outputs = (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpc-gh-'));
    const github = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(dir, 'summary.md'), GITHUB_OUTPUT: join(dir, 'output') };
    await writeFile(github.GITHUB_STEP_SUMMARY, '');
    const env = ['--env', 'ZOO_MODE=hostile-strings', '--env', 'ZOO_ECHO=API_TOKEN', '--env', `API_TOKEN=${SECRET}`];
    const run = await runCli([...LIMITS, ...env, '--', 'node', ZOO_SERVER], github);
    const read = (file: string) => readFile(file, 'utf8');
    return {
      run,
      files: {
        console: run.stdout,
        'report.json': await read(join(run.out, 'report.json')),
        'junit.xml': await read(join(run.out, 'junit.xml')),
        'index.html': await read(join(run.out, 'index.html')),
        'step summary': await read(github.GITHUB_STEP_SUMMARY),
      },
    };
  })();

  it('is escaped by every reporter, and kept as sent in report.json', async () => {
    const { run, files } = await outputs;
    expect(run.report?.server?.name).toContain('<script>alert(1)</script>\u0000\u001b[31mRED\u0007');
    expect(files['junit.xml']).not.toMatch(/[\u0000\u0007\u001b\uffff]|[\ud800-\udfff]/);
    expect(((await parse(files['junit.xml'])) as TestSuites).tests).toBe(run.report!.checks.length);
    for (const name of ['junit.xml', 'index.html'] as const) expect(files[name], name).not.toContain('<script>alert(1)');
    // Markdown shows fenced code as text: only outside the fences must markup and links be escaped.
    const prose = files['step summary'].replace(/^(`{3,})\n[\s\S]*?\n\1$/gm, '');
    expect(prose).not.toContain('<script>alert(1)');
    expect(prose).not.toContain('](javascript:');
    // Where a person reads the text, controls and bidi overrides are shown as escapes (JUnit only drops what XML forbids).
    for (const name of ['index.html', 'step summary', 'console'] as const) expect(files[name], name).not.toMatch(/[\u0000\u0007\u001b\u202e]/);
    // The console speaks to a GitHub runner here: no server line may read as a workflow command.
    expect(files.console.startsWith('::stop-commands::')).toBe(true);
    expect(files.console).toContain('\\x1b[31mRED\\x07');
  });

  it('never shows the value of a secret-named --env entry, wherever the server echoed it', async () => {
    const { files } = await outputs;
    for (const [name, text] of Object.entries(files)) expect(text, name).not.toContain(SECRET);
    expect(files['report.json']).toContain('***');
    expect(files['report.json']).toContain('hostile-strings'); // other --env values are not secrets
  });
});
