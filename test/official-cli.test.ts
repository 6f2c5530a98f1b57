// The official suite's command line, in process: how its lines translate to ours, the results layout its scripts
// read, and its expected-failures verdict on scenarios.
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeScenarios, loadOfficialBaseline } from '../src/baseline/official.js';
import { clientCommandOf, officialSide, requiredOf, serverAreaOf, translateOfficial } from '../src/cli/official.js';
import { requiredLines } from '../src/cli/commands/official.js';
import { AUTH_CORE } from '../src/cli/official-requirements.js';
import { OFFICIAL_CLIENT_SUITES } from '../src/cli/official-suites.js';
import { NOT_JUDGED_YET, OFFICIAL_SERVER_SCENARIOS } from '../src/report/official-server-scenarios.js';
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

  it('refuses the older official server --command and --interactive, naming our line that starts a server', () => {
    for (const line of [
      ['server', '--command', 'node s.js'],
      ['server', '--url', 'u', '--interactive'],
    ])
      expect(() => officialSide(line)).toThrow(/takes --url alone now.*mcp-conformance -- CMD/);
    // After our `--` a flag of that name is the server's own.
    expect(officialSide(['server', '--url', 'u', '--', 'node', 's.js', '--command'])).toBe('server');
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

  const named = (argv: readonly string[]) => argv.filter((_, i) => argv[i - 1] === '--scenario');
  const suite = (name: string, ...more: string[]) =>
    translateOfficial('client', ['--command', 'c', '--suite', name, ...more]);

  it('selects each client suite as the official runner does, by the official names', () => {
    // core: the four MCP scenarios and the tier-1 authorization ones; neither back-compat, nor draft, nor extensions.
    expect(named(suite('core').argv)).toEqual([
      'initialize',
      'tools_call',
      'elicitation-sep1034-client-defaults',
      'sse-retry',
      ...AUTH_CORE,
    ]);
    expect(named(suite('auth').argv)).toEqual(AUTH_CORE);
    expect(named(suite('sep-835').argv).every((n) => n.startsWith('auth/scope-'))).toBe(true);
    expect(named(suite('metadata').argv)).toEqual([
      'auth/metadata-default',
      'auth/metadata-var1',
      'auth/metadata-var2',
      'auth/metadata-var3',
    ]);
    expect(named(suite('extensions').argv)).toHaveLength(6);
    const draft = named(suite('draft').argv);
    expect(draft).toEqual(expect.arrayContaining(['request-metadata', 'auth/iss-supported', 'auth/resource-mismatch']));
    expect(draft).not.toContain('tools_call');
    // all: every official scenario we have; our own (client-requests, auth/state-mismatch) are not official.
    const all = suite('all');
    expect(named(all.argv)).toEqual(expect.arrayContaining(['auth/2025-03-26-oauth-endpoint-fallback', 'auth/dpop']));
    expect(named(all.argv)).not.toContain('client-requests');
    expect(all.notHere).toContainEqual({ scenario: 'sep-2640-client-no-prefetch', reason: 'no scenario here' });
    expect(named(all.argv).length + (all.notHere?.length ?? 0)).toBe(OFFICIAL_CLIENT_SUITES.all.length);
    // There is no pending client suite.
    expect(() => suite('pending')).toThrow(/unknown suite "pending": the suites are all, core, extensions/);
  });

  it('keeps the official server suites alone: active, core, all, pending, draft', () => {
    const server = (name: string) => translateOfficial('server', ['--url', 'u', '--suite', name]).argv;
    expect(server('core')).toEqual(server('active'));
    expect(server('all')).toContain('all');
    for (const gone of ['auth', 'extensions'])
      expect(() => server(gone)).toThrow(/the suites are active, core, all, pending, draft/);
    // pending: the checks judging the scenarios its everything-server does not pass yet.
    const pending = server('pending');
    expect(pending).toEqual(
      expect.arrayContaining([
        '--only',
        'tasks-ext/capability/create',
        '--only',
        'skills/**',
        '--only',
        'stateless/http/header-case',
      ]),
    );
    expect(pending).not.toContain('ping/respond');
  });

  it('drops from a suite what does not apply at --spec-version, cumulatively; an extension at none', () => {
    const at2025 = named(suite('all', '--spec-version', '2025-11-25').argv);
    expect(at2025).toEqual(expect.arrayContaining(['initialize', 'auth/metadata-default', 'sse-retry']));
    for (const off of [
      'auth/iss-supported',
      'request-metadata',
      'auth/2025-03-26-oauth-metadata-backcompat',
      'auth/dpop',
    ])
      expect(at2025).not.toContain(off);
    expect(named(suite('backcompat', '--spec-version', '2025-03-26').argv)).toHaveLength(2);
    const none = suite('extensions', '--spec-version', 'draft');
    expect([none.argv, none.skipped]).toEqual([
      [],
      'nothing to run: the extensions suite has no scenario here at 2026-07-28',
    ]);
    expect(() => suite('all', '--spec-version', '2024-11-05')).toThrow(/--spec-version takes draft or one of/);
  });

  it('skips a named scenario that does not apply at --spec-version, and runs it at its own revisions with --force', () => {
    const one = ['--command', 'c', '--scenario', 'auth/iss-supported', '--spec-version', '2025-11-25'];
    expect(translateOfficial('client', one).skipped).toMatch(/auth\/iss-supported does not apply at 2025-11-25/);
    const forced = translateOfficial('client', [...one, '--force']);
    expect([named(forced.argv), forced.argv.includes('--revision'), forced.skipped]).toEqual([
      ['auth/iss-supported'],
      false,
      undefined,
    ]);
    // Of several, the ones that apply run at the revision; a name we have not goes on to our run, which names it.
    const some = translateOfficial('client', [...one, '--scenario', 'initialize', '--scenario', 'nope']);
    expect([named(some.argv), some.notApplicable]).toEqual([['initialize', 'nope'], ['auth/iss-supported']]);
  });

  it('skips with exit 0 when nothing asked for applies at --spec-version, as the official runner does', async () => {
    const r = await cliHere(['client', '--command', 'c', '--scenario', 'auth/dpop', '--spec-version', '2025-11-25']);
    expect([r.exitCode, r.stdout]).toEqual([0, expect.stringMatching(/^skipped {5}auth\/dpop does not apply/)]);
  });

  it('scores a server set by official scenario name; what no check judges is not here, with why', () => {
    const server = requiredOf('server', '2026-07-28');
    expect(server.scored).toEqual(expect.arrayContaining(['server-stateless', 'caching', 'dns-rebinding-protection']));
    expect(server.scored.every((n) => n in OFFICIAL_SERVER_SCENARIOS)).toBe(true);
    expect(server.notScored).toContainEqual({ scenario: 'tasks-lifecycle', reason: 'extension' });
    expect(server.missing).toEqual(
      expect.arrayContaining([
        { scenario: 'tools-call-image', reason: 'fixture-only' },
        { scenario: 'tasks-mrtr-composition', reason: 'not judged yet' },
      ]),
    );
    // The whole run at the set's revision: our areas run beside the scored scenarios.
    const line = translateOfficial('server', ['--url', 'u', '--requirements', '2026-07-28']);
    expect(line.argv).toEqual(['u', '--out', 'reports', '--revision', '2026-07-28']);
    expect(line.notHere).toEqual(server.missing);
  });

  it('prints a server set scored by its scenarios, the unscored and our areas apart', () => {
    const set = requiredOf('server', '2025-11-25');
    const results = serverScenarios(
      [result('ping/respond', 'pass'), result('lifecycle/version/echo', 'fail'), result('tools/x', 'fail')],
      't',
    );
    expect(requiredLines(set, results, 'server').split('\n')).toEqual([
      `required    2025-11-25 (frozen): ${set.scored.length} scenarios scored, 1 failing: server-initialize`,
      'not scored  server-session-lifecycle (added-after-release)',
      'our areas   2 (not scored), 2 failing: lifecycle, tools',
      '',
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
    const notYet: string[] = [];
    for (const line of doc.split('\n')) {
      const cells = line.split(' | ');
      const name = /^\| `([a-z0-9-]+)`$/.exec(cells[0])?.[1];
      const judged = cells.at(-1) ?? '';
      if (name && cells.length === 4 && judged.startsWith('Not judged yet')) notYet.push(name);
      // Only the scenario table's rows (four columns); fixture-only and unjudged rows have no checks here.
      if (!name || cells.length !== 4 || /^(Fixture-only|Not judged)/.test(judged)) continue;
      const named = [...judged.matchAll(/`([^`]+)`/g)].map((m) => m[1]).filter((t) => ids.has(t));
      table[name] = [...new Set(named)];
    }
    expect(OFFICIAL_SERVER_SCENARIOS).toEqual(table);
    // The reason `--requirements` gives for a scenario no check judges: not yet, else fixture-only.
    expect(NOT_JUDGED_YET).toEqual(notYet);
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
