import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import _Ajv2020 from 'ajv/dist/2020.js';
import _addFormats from 'ajv-formats';
import { execa } from 'execa';
import { parse, type TestSuites } from 'junit2json';
import { describe, expect, it } from 'vitest';
import type { CheckResult, Report } from '../../src/schema/generated/report.js';
import { isAlive } from '../../src/transport/process-tree.js';
import { ANSWERS, BUDGET_S, LIMITS, ZOO, ZOO_SERVER } from '../fixtures/servers/zoo/zoo.mjs';
import { CLI, type CliRun, ROOT, runCli } from '../helpers.js';

const Ajv2020 = _Ajv2020.default;
const addFormats = _addFormats.default;

const ajv = new Ajv2020({ allErrors: true, strictSchema: false });
addFormats(ajv);
ajv.addKeyword('tsType');
const validReport = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schema/report.schema.json'), 'utf8')));

/** Every process on the machine whose environment carries `mark`: the server, and whatever it spawned. */
function marked(mark: string): number[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .flatMap((n) => {
      try {
        return readFileSync(`/proc/${n}/environ`, 'latin1').includes(mark) ? [Number(n)] : [];
      } catch {
        return [];
      }
    })
    .filter(isAlive);
}

/**
 * Each zoo member's run, once: its row checks the verdict, and the tests below look into the same run's transcripts.
 * `mark` is in the environment of the server and whatever it spawned.
 */
const zooRuns = new Map<string, Promise<CliRun & { mark: string }>>();
function zooRun(name: string) {
  if (!zooRuns.has(name)) {
    const mark = `ZOO_MARK=${randomUUID()}`;
    zooRuns.set(
      name,
      runCli(['--env', mark, ...ZOO.find((z) => z.name === name)!.args]).then((run) => ({ ...run, mark })),
    );
  }
  return zooRuns.get(name)!;
}

// Side by side: most members are waited on, not computed. The limits of each run bound it, by the tool's own clock;
// the test's timeout only catches a run that never ends.
describe.concurrent('the zoo: every hostile server gets a finished run, valid reports, the right verdict and no survivors', () => {
  for (const z of ZOO) {
    it(`${z.name} → ${z.check} ${z.status}`, async () => {
      const run = await zooRun(z.name);
      const report = run.report as Report;

      // From start to the last server stopped: the budget, and the stopping after it. A flooding server's run stops up
      // to a dozen flooding processes, beside the other test files' runs: measured up to 24 s after the budget.
      expect(report.durationMs).toBeLessThan((BUDGET_S + 30) * 1000);
      // 1 for a failing server, 0 for one that only warns; never 2, the harness's own trouble.
      expect([0, 1], run.stderr).toContain(run.exitCode);
      expect(validReport(report), ajv.errorsText(validReport.errors)).toBe(true);
      const junit = (await parse(await readFile(join(run.out, 'junit.xml'), 'utf8'))) as TestSuites;
      expect(junit.tests).toBe(report.checks.length);

      const check = report.checks.find((c) => c.id === z.check);
      expect(check?.status, check?.message).toBe(z.status);
      expect(check?.message).toMatch(z.message);
      // A hostile server is the server's fault: nothing it does may pass for a harness error, except the budget running out.
      expect(
        report.checks
          .filter((c) => c.status === 'error' && !c.message.startsWith('run budget'))
          .map((c) => `${c.id}: ${c.message}`),
      ).toEqual([]);
      expect(marked(run.mark)).toEqual([]);
    });
  }

  it('keeps a large frame as a hashed prefix, and a flood as a bounded transcript', async () => {
    const entries = async (name: string) => (await zooRun(name)).report!.checks.flatMap((c) => c.transcript ?? []);
    const huge = (await entries('huge-line')).filter((e) => e.bytes > 50 * 1024 * 1024);
    expect(huge.length).toBeGreaterThan(0);
    for (const e of huge)
      expect([e.truncated, e.text.length <= 4096, e.sha256]).toEqual([
        true,
        true,
        expect.stringMatching(/^[0-9a-f]{16}$/),
      ]);
    expect((await entries('flood')).some((e) => e.dir === 'event' && e.text.startsWith('transcript full'))).toBe(true);
  });

  // Ctrl-C, and SIGTERM as CI runners and `timeout` send it.
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal} mid-run stops the server tree, writes the partial reports marked interrupted, and exits ${code}`, async () => {
      const mark = `ZOO_MARK=${randomUUID()}`;
      const out = await mkdtemp(join(tmpdir(), 'mcpc-'));
      // hang-ping keeps the run busy until its budget: long enough to interrupt it.
      const args = ZOO.find((z) => z.name === 'hang-ping')!.args;
      // execa sends no SIGKILL of its own after the signal: how long the tool takes to stop is what is tested.
      const pinged = join(out, 'pinged');
      const cli = execa(
        process.execPath,
        [CLI, '--out', out, '--env', mark, '--env', `ZOO_PING_FILE=${pinged}`, ...args],
        { reject: false, forceKillAfterDelay: false, env: { GITHUB_ACTIONS: '', NO_COLOR: '1' } },
      );
      // Interrupted once checks are under way (the server got a ping), however long the start took.
      for (let i = 0; i < 1200 && !existsSync(pinged); i++) await sleep(50);
      const t0 = performance.now();
      cli.kill(signal);
      const r = await cli;
      // A run that went on after the signal would last until its budget (60 s).
      expect(performance.now() - t0).toBeLessThan(30_000);
      expect(r.exitCode, String(r.stderr)).toBe(code);
      const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
      expect(validReport(report), ajv.errorsText(validReport.errors)).toBe(true);
      expect(report.interrupted).toBe(true);
      expect(
        report.checks.some((c) => c.status === 'error' && c.message === 'run interrupted before this check finished'),
      ).toBe(true);
      expect(((await parse(await readFile(join(out, 'junit.xml'), 'utf8'))) as TestSuites).tests).toBe(
        report.checks.length,
      );
      expect(String(r.stdout)).toContain('interrupted');
      expect(marked(mark)).toEqual([]);
    });
  }
  it('SIGTERM while the revision probe waits on a silent server ends the wait at once: partial reports, exit 143', async () => {
    const mark = `ZOO_MARK=${randomUUID()}`;
    const out = await mkdtemp(join(tmpdir(), 'mcpc-'));
    // --timeout 120: a probe that waited its requests out would outlast the test.
    const cli = execa(
      process.execPath,
      [CLI, '--out', out, '--timeout', '120', '--env', mark, '--env', 'ZOO_MODE=silent', '--', 'node', ZOO_SERVER],
      { reject: false, forceKillAfterDelay: false, env: { GITHUB_ACTIONS: '', NO_COLOR: '1' } },
    );
    // Killed once the probe's server runs (its environment carries the mark).
    for (let i = 0; i < 1200 && marked(mark).length === 0; i++) await sleep(50);
    cli.kill('SIGTERM');
    const r = await cli;
    expect(r.exitCode, String(r.stderr)).toBe(143);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
    expect([validReport(report), report.interrupted]).toEqual([true, true]);
    expect(marked(mark)).toEqual([]);
  }, 60_000);
});

describe.concurrent('a server lost mid-run', () => {
  const only = [
    '--only',
    'ping/respond',
    '--only',
    'lifecycle/process/alive',
    '--only',
    'lifecycle/shutdown/stdin-close',
  ];
  const pidOf = (c: CheckResult | undefined) =>
    c?.transcript?.find((e) => e.text.startsWith('spawn '))?.text.match(/\(pid (\d+)\)$/)?.[1];

  it('crashing: the check in flight fails naming its request, the crash is its own result with the stderr tail, and the checks after run on a restarted server', async () => {
    const mark = `ZOO_MARK=${randomUUID()}`;
    // The auto probe's server/discover, then initialize and tools/list (discovery, in the probe's process) are
    // answered; the ping of ping/respond kills it.
    const run = await runCli([
      '--env',
      mark,
      ...ANSWERS,
      ...only,
      '--env',
      'ZOO_MODE=crash-after',
      '--env',
      'ZOO_N=3',
      '--',
      'node',
      ZOO_SERVER,
    ]);
    const report = run.report!;
    expect(validReport(report), ajv.errorsText(validReport.errors)).toBe(true);
    const check = (id: string) => report.checks.find((c) => c.id === id);
    // It names the crash as its cause, and the console lists it under that cause.
    expect([check('ping/respond')?.status, check('ping/respond')?.message]).toEqual([
      'fail',
      expect.stringMatching(
        /^server closed the connection before answering ping: process exited \(code 139, signal null\)\nserver stderr:\n[\s\S]*segfault after 3 requests\nafter: lifecycle\/process\/alive \(the shared server was lost while this check waited on it; fix that first\)$/,
      ),
    ]);
    expect(check('ping/respond')?.after).toBe('lifecycle/process/alive');
    expect(run.stdout).toMatch(
      /\nFAIL  lifecycle\/process\/alive [\s\S]*\n  after it    1 check\(s\) failed because of it:\n    FAIL  ping\/respond  /,
    );
    expect(run.stdout).not.toMatch(/\nFAIL  ping\/respond/);
    const alive = check('lifecycle/process/alive');
    expect([alive?.status, alive?.message]).toEqual([
      'fail',
      expect.stringMatching(
        /^the shared server was lost mid-run: process exited \(code 139, signal null\), leaving ping \(id 4\) unanswered\nserver stderr:\n[\s\S]*segfault after 3 requests$/,
      ),
    ]);
    // The shutdown check came after the crash: it ran on another process, which passed it on its merits.
    const shutdown = check('lifecycle/shutdown/stdin-close');
    expect([shutdown?.status, shutdown?.message]).toEqual(['pass', 'exited after stdin closed']);
    expect(pidOf(shutdown)).toMatch(/^\d+$/);
    expect(pidOf(shutdown)).not.toBe(pidOf(alive));
    expect(marked(mark)).toEqual([]);
  });

  it('crashing under a SHOULD check: what it waited on is lost, so it warns at its own level and names the cause', async () => {
    const mark = `ZOO_MARK=${randomUUID()}`;
    // The probe's server/discover, initialize and tools/list are answered; the property's first tools/list kills it.
    const should = ['--only', 'pagination/invalid-cursor', '--only', 'lifecycle/process/alive'];
    const run = await runCli([
      '--env',
      mark,
      ...ANSWERS,
      ...should,
      '--env',
      'ZOO_MODE=crash-after',
      '--env',
      'ZOO_N=3',
      '--',
      'node',
      ZOO_SERVER,
    ]);
    const check = (id: string) => run.report!.checks.find((c) => c.id === id);
    expect(check('lifecycle/process/alive')?.status).toBe('fail');
    const cursor = check('pagination/invalid-cursor');
    expect([cursor?.status, cursor?.level, cursor?.after]).toEqual(['warn', 'SHOULD', 'lifecycle/process/alive']);
    expect(cursor?.message).toMatch(/^the server stopped answering at the generated value below/);
    expect(marked(mark)).toEqual([]);
  });

  it('closing its stdout: every request fails at once saying so, none waits for its timeout, and no process survives', async () => {
    const run = await zooRun('close-stdout');
    const report = run.report!;
    expect(validReport(report), ajv.errorsText(validReport.errors)).toBe(true);
    const messages = report.checks.map((c) => c.message);
    expect(messages.filter((m) => /no answer (to|from) .* within/.test(m))).toEqual([]);
    expect(report.checks.find((c) => c.id === 'lifecycle/process/alive')).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(
        /^the shared server was lost mid-run: server closed its stdout \(the process is still running\)/,
      ),
    });
    expect(messages.filter((m) => m.includes('server closed its stdout')).length).toBeGreaterThan(5);
    expect(marked(run.mark)).toEqual([]);
  });
});

describe.concurrent('a server whose every string is hostile, and which echoes a secret from its environment', () => {
  const SECRET = 'tok-s3cret-4711';
  /** Every output of one run: the reports, the badge, the console, and the GitHub step summary. */
  const outputsOf = async (args: string[], env: Record<string, string> = {}) => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpc-gh-'));
    const github = {
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
      GITHUB_OUTPUT: join(dir, 'output'),
    };
    await writeFile(github.GITHUB_STEP_SUMMARY, '');
    const run = await runCli([...ANSWERS, '--env', 'ZOO_MODE=hostile-strings', ...args, '--', 'node', ZOO_SERVER], {
      ...github,
      ...env,
    });
    const read = (file: string) => readFile(file, 'utf8');
    const files = { console: run.stdout, 'step summary': await read(github.GITHUB_STEP_SUMMARY) };
    for (const name of ['report.json', 'junit.xml', 'index.html', 'badge.svg', 'badge.json'] as const)
      Object.assign(files, { [name]: await read(join(run.out, name)) });
    return {
      run,
      files: files as typeof files &
        Record<'report.json' | 'junit.xml' | 'index.html' | 'badge.svg' | 'badge.json', string>,
    };
  };
  // Read by the escaping test and the first secret test.
  const secretNamed = outputsOf(['--env', 'ZOO_ECHO=API_TOKEN', '--env', `API_TOKEN=${SECRET}`]);

  it('is escaped by every reporter, and kept as sent in report.json', async () => {
    const { run, files } = await secretNamed;
    expect(run.report?.server?.name).toContain('<script>alert(1)</script>\u0000\u001b[31mRED\u0007');
    expect(files['junit.xml']).not.toMatch(/[\u0000\u0007\u001b\uffff]|[\ud800-\udfff]/);
    expect(((await parse(files['junit.xml'])) as TestSuites).tests).toBe(run.report!.checks.length);
    for (const name of ['junit.xml', 'index.html'] as const)
      expect(files[name], name).not.toContain('<script>alert(1)');
    // Markdown shows fenced code as text: only outside the fences must markup and links be escaped.
    const prose = files['step summary'].replace(/^(`{3,})\n[\s\S]*?\n\1$/gm, '');
    expect(prose).not.toContain('<script>alert(1)');
    expect(prose).not.toContain('](javascript:');
    // Where a person reads the text, controls and bidi overrides are shown as escapes (JUnit only drops what XML forbids).
    for (const name of ['index.html', 'step summary', 'console'] as const)
      expect(files[name], name).not.toMatch(/[\u0000\u0007\u001b\u202e]/);
    // The console speaks to a GitHub runner here: no server line may read as a workflow command.
    expect(files.console.startsWith('::stop-commands::')).toBe(true);
    expect(files.console).toContain('\\x1b[31mRED\\x07');
  });

  // The server echoes the value in its version, a tool description, an error message and its stderr.
  const ways: [string, () => ReturnType<typeof outputsOf>][] = [
    ['a secret-named --env entry', () => secretNamed],
    [
      'a variable named with --secret',
      () => outputsOf(['--secret', 'DB_URL', '--env', 'ZOO_ECHO=DB_URL', '--env', `DB_URL=${SECRET}`]),
    ],
    [
      "an inherited variable named in the config file's secrets",
      async () => {
        const config = join(await mkdtemp(join(tmpdir(), 'mcpc-config-')), 'mcp-conformance.config.yaml');
        await writeFile(config, 'secrets: [DB_URL]\n');
        return outputsOf(['--config', config, '--env', 'ZOO_ECHO=DB_URL'], { DB_URL: SECRET });
      },
    ],
  ];
  for (const [how, outputs] of ways) {
    it(`never shows the value of ${how}, wherever the server echoed it`, async () => {
      const { files } = await outputs();
      for (const [name, text] of Object.entries(files)) expect(text, name).not.toContain(SECRET);
      expect(files['report.json']).toContain('***');
      expect(files['report.json']).toContain('hostile-strings'); // other --env values are not secrets
    });
  }

  it('never shows a secret in the error of a server that cannot start, neither in its command line nor in its output', async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the server's own source, whose template runs in that process
    const script = 'console.error(`cannot connect to ${process.env.DB_URL}`); process.exit(1)';
    const http = ['--http-url', 'http://127.0.0.1:{port}/mcp', '--port', 'auto'];
    const run = await runCli([
      ...LIMITS,
      '--secret',
      'DB_URL',
      '--env',
      `DB_URL=${SECRET}`,
      ...http,
      '--',
      'node',
      '-e',
      script,
      SECRET,
    ]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(
      /^mcp-conformance: node -e .* \*\*\* exited \(code 1, signal none\) before answering at http:.*\nlast server output:\n {2}cannot connect to \*\*\*$/,
    );
    expect(run.stderr + run.stdout).not.toContain(SECRET);
  });
});
