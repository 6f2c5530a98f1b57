// The official suite's command line, in process: how its lines translate to ours, the results layout its scripts
// read, and its expected-failures verdict on scenarios.
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeScenarios, loadOfficialBaseline } from '../src/baseline/official.js';
import { clientCommandOf, officialSide, requiredOf, serverAreaOf, translateOfficial } from '../src/cli/official.js';
import { OFFICIAL_SERVER_SCENARIOS } from '../src/report/official-server-scenarios.js';
import { UsageError } from '../src/cli/options.js';
import { officialCheck, serverScenarios, writeOfficialResults } from '../src/report/official-results.js';
import type { CheckResult } from '../src/schema/generated/report.js';
import { loadSuite } from '../src/suite/suite.js';
import { Transcript } from '../src/transcript.js';
import { OUTPUT_CAP, runClientProcess } from '../src/transport/client-process.js';
import { cliHere } from './helpers.js';

const result = (id: string, status: CheckResult['status'], area = id.split('/')[0]): CheckResult => ({
  id,
  title: `title of ${id}`,
  area,
  status,
  level: 'MUST',
  requirement: { id: `req.${id}`, level: 'MUST', spec: 'https://example.test/spec#x', text: 'The sentence.' },
  message: `message of ${id}`,
  durationMs: 1,
});

describe('officialSide', () => {
  it('takes the official form only after its subcommand word and flag', () => {
    expect(officialSide(['server', '--url', 'http://h/mcp'])).toBe('server');
    expect(officialSide(['server', '--url=http://h/mcp'])).toBe('server');
    expect(officialSide(['client', '--command', 'node c.js', '--suite', 'all'])).toBe('client');
    // Ours: a target named server, a client command after --, a list.
    expect(officialSide(['server'])).toBeUndefined();
    expect(officialSide(['client', '--scenario', 'initialize', '--', 'node', 'c.js', '--command'])).toBeUndefined();
    expect(officialSide(['list', '--server'])).toBeUndefined();
    expect(officialSide(['./server', '--url', 'x'])).toBeUndefined();
  });
});

describe('list', () => {
  it('--server names the server scenarios first, as the official list does: our areas, frame rules included', async () => {
    const r = await cliHere(['list', '--server']);
    expect(r.exitCode).toBe(0);
    const first = r.stdout.split('\n')[0];
    expect(first).toMatch(/^Server scenarios \(areas\): /);
    expect(first.split(': ')[1].split(', ')).toEqual(expect.arrayContaining(['tools', 'transport', 'schema']));
    expect((await cliHere(['list'])).stdout).not.toContain('Server scenarios');
  });

  it('--authorization lists the checks of the authorization command, each with its level and requirement', async () => {
    const r = await cliHere(['list', '--authorization', '--only', 'authz/pkce/*']);
    expect(r.exitCode).toBe(0);
    const rows = r.stdout.trim().split('\n');
    expect(rows.slice(1, -1).map((l) => l.split(/\s{2,}/).slice(0, 3))).toEqual([
      ['authz/pkce/required', 'MUST', 'authz.pkce.required'],
      ['authz/pkce/verifier', 'MUST', 'authz.pkce.verifier'],
    ]);
    expect(rows.at(-1)).toMatch(/^2 authorization-server checks/);
  });
});

describe('translateOfficial', () => {
  it('maps the server line: URL, suite, spec version, milliseconds, output folder', () => {
    expect(
      translateOfficial('server', [
        '--url',
        'http://h/mcp',
        '--suite',
        'all',
        '--spec-version',
        'draft',
        '--timeout',
        '2500',
        '-o',
        'res',
        '--verbose',
      ]),
    ).toEqual({
      side: 'server',
      out: 'res',
      outputDir: 'res',
      argv: ['http://h/mcp', '--out', 'res', '--revision', '2026-07-28', '--timeout', '2.5', '--verbose'],
    });
  });

  it('maps server scenarios to the checks judging them, fixture-only ones to our areas, and the suites to ours', () => {
    const { argv } = translateOfficial('server', [
      '--url',
      'u',
      '--scenario',
      'tools-call-image',
      '--scenario',
      'tools-call-audio',
      '--scenario',
      'server-initialize',
    ]);
    expect(argv).toEqual([
      'u',
      '--out',
      'reports',
      '--only',
      'tools/**',
      ...OFFICIAL_SERVER_SCENARIOS['server-initialize'].flatMap((id) => ['--only', id]),
    ]);
    expect(translateOfficial('server', ['--url', 'u', '--suite', 'draft']).argv).toContain('2026-07-28');
    expect(translateOfficial('server', ['--url', 'u']).argv).toEqual(['u', '--out', 'reports']);
    expect(serverAreaOf('dns-rebinding-protection')).toBe('transport');
    expect(serverAreaOf('tasks-lifecycle')).toBe('tasks-ext');
    expect(serverAreaOf('resources')).toBe('resources');
  });

  it('maps the client line: the suite to scenario names, milliseconds to the scenario budget, the command split', () => {
    const line = translateOfficial('client', [
      '--command',
      'php tests/client.php',
      '--suite',
      'metadata',
      '--timeout',
      '30000',
      '--expected-failures',
      'base.yml',
      '--output-dir',
      'results',
    ]);
    expect(line.expectedFailures).toBe('base.yml');
    expect(line.argv.slice(-4)).toEqual(['results', '--', 'php', 'tests/client.php']);
    const names = line.argv.filter((_, i) => line.argv[i - 1] === '--scenario');
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => n.startsWith('auth/metadata-'))).toBe(true);
    expect(line.argv).toContain('--scenario-timeout');
    expect(line.argv[line.argv.indexOf('--scenario-timeout') + 1]).toBe('30');
  });

  it('maps the client backcompat suite to the authorization scenarios of 2025-03-26 alone', () => {
    const line = translateOfficial('client', ['--command', 'c', '--suite', 'backcompat']);
    expect(line.argv.filter((_, i) => line.argv[i - 1] === '--scenario')).toEqual([
      'auth/2025-03-26-oauth-metadata-backcompat',
      'auth/2025-03-26-oauth-endpoint-fallback',
    ]);
  });

  it('runs a frozen requirement set: its scenarios at its revision, the unscored ones apart', () => {
    const client = translateOfficial('client', ['--command', 'c', '--requirements', '2025-11-25']);
    const names = client.argv.filter((_, i) => client.argv[i - 1] === '--scenario');
    expect(names).toEqual(expect.arrayContaining(['initialize', 'sse-retry', 'auth/pre-registration', 'auth/dpop']));
    expect(client.argv[client.argv.indexOf('--revision') + 1]).toBe('2025-11-25');
    expect(client.requirements?.scored).toContain('initialize');
    expect(client.requirements?.scored).not.toContain('auth/dpop');
    expect(client.requirements?.notScored).toContainEqual({ scenario: 'auth/dpop', reason: 'extension' });
    // A server's set is our areas: an area some scored scenario maps to is scored, whatever else maps to it.
    const server = requiredOf('server', '2026-07-28');
    expect(server.scored).toEqual(expect.arrayContaining(['stateless', 'tools', 'resources', 'prompts', 'transport']));
    expect(server.notScored).toEqual([
      { scenario: 'tasks-ext', reason: 'extension' },
      { scenario: 'auth', reason: 'added-after-release' },
    ]);
    expect(translateOfficial('server', ['--url', 'u', '--requirements', '2026-07-28']).argv).toEqual(
      expect.arrayContaining(['--only', 'tasks-ext/**', '--revision', '2026-07-28']),
    );
    expect(() => requiredOf('client', '2024-01-01')).toThrow(/the frozen sets are 2025-11-25, 2026-07-28/);
  });

  it('refuses what the official runner refuses, as usage errors', () => {
    expect(() => translateOfficial('client', ['--command', 'c'])).toThrow(/--scenario or --suite/);
    expect(() => translateOfficial('client', ['--command', 'c', '--suite', 'nope'])).toThrow(/unknown suite "nope"/);
    expect(() => translateOfficial('server', ['--url', 'u', '--suite', 'pendingx'])).toThrow(UsageError);
    expect(() => translateOfficial('server', ['--url', 'u', '--requirements', '2026-07-28', '--suite', 'all'])).toThrow(
      /cannot be combined with --suite/,
    );
    expect(() => translateOfficial('server', ['--url', 'u', '--timeout', '0'])).toThrow(/milliseconds/);
    expect(() => translateOfficial('server', ['--url', 'u', '--out', 'x'])).toThrow(UsageError);
  });

  it('splits a plain command at its spaces, and gives one with shell syntax to sh with the URL as its argument', () => {
    expect(clientCommandOf('php tests/client.php')).toEqual(['php', 'tests/client.php']);
    expect(clientCommandOf('node "my client.js"')).toEqual(['sh', '-c', 'node "my client.js" "$@"', 'sh']);
  });
});

describe('the official results layout', () => {
  it('holds our check in the official shape, our id and sentence in details', () => {
    const failed = officialCheck(result('tools/call/x', 'warn'), '2026-01-01T00:00:00.000Z', '2025-11-25');
    expect(failed).toMatchObject({
      id: 'tools-call-x',
      name: 'title of tools/call/x',
      description: 'The sentence.',
      status: 'WARNING',
      specReferences: [{ id: 'req.tools/call/x', url: 'https://example.test/spec#x' }],
      details: { check: 'tools/call/x', revision: '2025-11-25', message: 'message of tools/call/x' },
      errorMessage: 'message of tools/call/x',
    });
    expect(officialCheck(result('a/b', 'pass'), 't').errorMessage).toBeUndefined();
    expect(officialCheck(result('a/b', 'error'), 't').status).toBe('FAILURE');
    expect(officialCheck(result('a/b', 'skip'), 't').status).toBe('SKIPPED');
  });

  it('groups a server run by area, a revision prefix apart', () => {
    const groups = serverScenarios(
      [
        result('2025-11-25/tools/a', 'pass', '2025-11-25/tools'),
        result('2026-07-28/tools/a', 'fail', '2026-07-28/tools'),
        result('2025-11-25/base/b', 'pass', '2025-11-25/base'),
      ],
      't',
    );
    expect(groups.map((g) => [g.scenario, g.revision, g.checks.map((c) => `${c.id} ${c.status}`)])).toEqual([
      ['tools', '2025-11-25', ['tools-a SUCCESS']],
      ['tools', '2026-07-28', ['tools-a FAILURE']],
      ['base', '2025-11-25', ['base-b SUCCESS']],
    ]);
  });

  it('groups a server run by official scenario too, with the checks judging it, a revision prefix apart', () => {
    const groups = serverScenarios(
      [
        result('2025-11-25/ping/respond', 'pass', '2025-11-25/ping'),
        result('2025-11-25/schema/results', 'fail', '2025-11-25/schema'),
        result('2026-07-28/stateless/caching', 'warn', '2026-07-28/stateless'),
      ],
      't',
    );
    const official = groups.filter((g) => g.scenario in OFFICIAL_SERVER_SCENARIOS);
    expect(official.map((g) => [g.scenario, g.revision, g.checks.map((c) => `${c.id} ${c.status}`)])).toEqual([
      // `ping` is our area's folder, once.
      ['ping', '2025-11-25', ['ping-respond SUCCESS']],
      ['tools-list', '2025-11-25', ['schema-results FAILURE']],
      ['resources-list', '2025-11-25', ['schema-results FAILURE']],
      ['prompts-list', '2025-11-25', ['schema-results FAILURE']],
      ['tasks-wire-fields', '2025-11-25', ['schema-results FAILURE']],
      ['caching', '2026-07-28', ['stateless-caching WARNING']],
    ]);
    // The areas come first, each as before.
    expect(groups.slice(0, 3).map((g) => g.scenario)).toEqual(['ping', 'schema', 'stateless']);
  });

  it('maps exactly the official scenarios the doc table judges here, to the check ids it names', async () => {
    const suite = await loadSuite();
    const ids = new Set([...suite.checks, ...suite.frameRules].map((c) => c.id));
    const doc = await readFile(join(import.meta.dirname, '..', 'docs', 'official-server-scenarios.md'), 'utf8');
    const table: Record<string, string[]> = {};
    for (const line of doc.split('\n')) {
      const cells = line.split(' | ');
      const name = /^\| `([a-z0-9-]+)`$/.exec(cells[0])?.[1];
      const judged = cells.at(-1) ?? '';
      // Only the scenario table's rows (four columns); fixture-only and unjudged rows have no checks here.
      if (!name || cells.length !== 4 || /^(Fixture-only|Not judged)/.test(judged)) continue;
      const named = [...judged.matchAll(/`([^`]+)`/g)].map((m) => m[1]).filter((t) => ids.has(t));
      table[name] = [...new Set(named)];
    }
    expect(OFFICIAL_SERVER_SCENARIOS).toEqual(table);
    // Every id is a check of this suite, so `--scenario NAME` never selects nothing.
    expect(
      Object.values(OFFICIAL_SERVER_SCENARIOS)
        .flat()
        .filter((id) => !ids.has(id)),
    ).toEqual([]);
  });

  it('writes one folder per scenario, named as the official runner names them, with its checks.json', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'official-'));
    const scenarios = serverScenarios([result('tools/a', 'pass'), result('base/b', 'fail')], 't');
    await writeOfficialResults(dir, 'server', scenarios, Date.parse('2026-01-02T03:04:05.006Z'));
    expect((await readdir(dir)).sort()).toEqual([
      'server-base-2026-01-02T03-04-05-007Z',
      'server-tools-2026-01-02T03-04-05-006Z',
    ]);
    const checks = JSON.parse(await readFile(join(dir, 'server-base-2026-01-02T03-04-05-007Z', 'checks.json'), 'utf8'));
    expect(checks.map((c: { id: string; status: string }) => `${c.id} ${c.status}`)).toEqual(['base-b FAILURE']);
    await writeOfficialResults(dir, 'client', [{ scenario: 'initialize', checks: [] }], 0);
    expect(await readdir(dir)).toContain('initialize-1970-01-01T00-00-00-000Z');
    // A server's folder has its checks alone.
    expect(await readdir(join(dir, 'server-base-2026-01-02T03-04-05-007Z'))).toEqual(['checks.json']);
  });

  it("writes the client's stdout.txt and stderr.txt beside each client scenario's checks.json", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'official-'));
    const client = join(dir, 'client.mjs');
    await writeFile(client, "process.stdout.write('to stdout\\n');\nprocess.stderr.write('to stderr\\n');\n");
    const out = join(dir, 'results');
    const r = await cliHere([
      'client',
      '--command',
      `${process.execPath} ${client}`,
      '--scenario',
      'initialize',
      '--spec-version',
      '2025-11-25',
      '-o',
      out,
    ]);
    const folders = (await readdir(out, { withFileTypes: true })).filter((d) => d.isDirectory());
    expect(
      folders.map((d) => d.name.replace(/-\d{4}-.*$/, '')),
      r.stdout,
    ).toEqual(['initialize']);
    const folder = join(out, folders[0]!.name);
    expect((await readdir(folder)).sort()).toEqual(['checks.json', 'stderr.txt', 'stdout.txt']);
    expect(await readFile(join(folder, 'stdout.txt'), 'utf8')).toBe('to stdout\n');
    expect(await readFile(join(folder, 'stderr.txt'), 'utf8')).toBe('to stderr\n');
  });

  it("keeps a flooding client's output up to its cap, and says how much more it wrote", async () => {
    const exit = await runClientProcess({
      command: process.execPath,
      args: ['-e', `process.stdout.write('x'.repeat(${OUTPUT_CAP + 10}))`],
      env: {},
      budgetMs: 10_000,
      transcript: new Transcript(),
    });
    expect(exit.output?.stdout).toBe(`${'x'.repeat(OUTPUT_CAP)}\n[10 more characters not kept]\n`);
    expect(exit.output?.stderr).toBe('');
  });
});

describe('the official expected-failures file', () => {
  const scenario = (name: string, ...statuses: CheckResult['status'][]) => ({
    scenario: name,
    checks: statuses.map((s, i) => officialCheck(result(`${name}/c${i}`, s), 't')),
  });

  it('reads server: and client: lists of scenario names, and leaves our list of entries to ours', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'official-'));
    await writeFile(join(dir, 'official.yml'), 'server:\n  - tools\nclient:\n  - initialize\n');
    await writeFile(join(dir, 'ours.yml'), '- id: tools/**\n  reason: not yet\n');
    await writeFile(join(dir, 'bad.yml'), 'servers:\n  - tools\n');
    expect(await loadOfficialBaseline(join(dir, 'official.yml'))).toMatchObject({
      server: ['tools'],
      client: ['initialize'],
    });
    expect(await loadOfficialBaseline(join(dir, 'ours.yml'))).toBeUndefined();
    await expect(loadOfficialBaseline(join(dir, 'bad.yml'))).rejects.toThrow(/unknown key/);
  });

  it('judges scenarios as the official runner does: a warning fails one, a listed pass is stale', () => {
    const results = [
      scenario('a', 'pass', 'fail'),
      scenario('b', 'warn'),
      scenario('c', 'pass', 'skip'),
      scenario('d', 'pass'),
      // The same scenario at a second revision: it fails when either run does.
      scenario('d', 'fail'),
    ];
    expect(judgeScenarios(results, ['a', 'c', 'gone'])).toEqual({
      expected: ['a'],
      stale: ['c'],
      unexpected: ['b', 'd'],
      exitCode: 1,
    });
    expect(judgeScenarios(results.slice(0, 2), ['a', 'b']).exitCode).toBe(0);
  });

  it('judges an entry naming an official server scenario on the checks judging it; a fixture-only one is left alone', () => {
    const run = serverScenarios([result('ping/respond', 'pass'), result('lifecycle/version/echo', 'fail')], 't');
    expect(judgeScenarios(run, ['ping', 'server-initialize', 'tools-call-audio'])).toEqual({
      expected: ['server-initialize'],
      stale: ['ping'],
      unexpected: ['lifecycle'],
      exitCode: 1,
    });
  });
});
