// Authorization entries in the matrix, in the test's own process: a servers file's `authorization:` entry and the
// command line it runs, the mistakes it is refused for, and a matrix of a server, an authorization server judged against
// oauth2-mock-server (its matrix-run.json as a matrix run writes it), the same run's folder as `authorization --out`
// leaves it, and an authorization server whose run left no report.
import { matrixSchemaErrors } from './helpers.js';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServersFile } from '../src/config/servers-file.js';
import { runConformance, type Serve } from '../src/index.js';
import { buildMatrix, entryName } from '../src/report/matrix/build.js';
import { renderMatrixHtml } from '../src/report/matrix/html.js';
import { writeReports } from '../src/report/write.js';
import { runAuthorizationConformance } from '../src/run/authz/run.js';
import { cliArgs } from '../src/run/matrix.js';
import type { Matrix } from '../src/schema/generated/matrix.js';
import { createServer, serveStreams } from '../examples/reference-server/mcp.mjs';
import { type RunningMock, startMock } from './fixtures/authz/oauth2-mock-server.js';

const reference: Serve = (streams) => serveStreams(createServer(), streams);
/** The one fault of the mock as startMock(true) leaves it: a code redeemed without its code_verifier. */
const VERIFIER = 'authz/pkce/verifier';

describe('an authorization entry of the servers file', () => {
  let dir: string;
  let file: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-matrix-authz-file-'));
    file = join(dir, 'servers.yaml');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const load = async (entry: string) => {
    await writeFile(file, `servers:\n  - ${entry}\n`);
    return loadServersFile(file);
  };

  it('runs as `mcp-conformance authorization --url ISSUER` with its options and the matrix options that apply', async () => {
    const [entry] = await load(
      '{ name: as, authorization: "https://as.example/", clientId: c1, clientSecret: s3cret, port: 3001, resource: "https://mcp.example/mcp", scope: "mcp read", revision: 2025-11-25, timeout: 4, expectedFailures: base.yaml }',
    );
    expect(cliArgs(entry, { budgetMs: 60_000, seed: 3, runs: 5, maxStarts: 1, strict: true }, 'out/as')).toEqual([
      'authorization',
      '--url',
      'https://as.example/',
      '--out',
      'out/as',
      '--client-id',
      'c1',
      '--client-secret',
      's3cret',
      '--port',
      '3001',
      '--resource',
      'https://mcp.example/mcp',
      '--scope',
      'mcp read',
      '--spec-version',
      '2025-11-25',
      '--timeout',
      '4',
      '--strict',
      '--expected-failures',
      join(dir, 'base.yaml'),
    ]);
    // revision auto is every check: no --spec-version; the matrix's --timeout when the entry names none.
    const [auto] = await load('{ name: as, authorization: "http://127.0.0.1:9000", revision: auto }');
    expect(cliArgs(auto, { budgetMs: 60_000, timeout: 7 }, 'o')).toEqual([
      'authorization',
      '--url',
      'http://127.0.0.1:9000',
      '--out',
      'o',
      '--timeout',
      '7',
    ]);
  });

  it('is refused, naming the field, for an issuer that is no URL or a field of another side', async () => {
    const AS = 'name: as, authorization: "https://as.example"';
    const cases: [string, RegExp][] = [
      ['{ name: as, authorization: as.example }', /servers\[0\]\.authorization: the issuer's URL \(http or https\)/],
      ['{ name: as, authorization: "ftp://as.example" }', /servers\[0\]\.authorization: the issuer's URL/],
      [
        `{ ${AS}, command: [node, s.mjs] }`,
        /servers\[0\]\.command: a server field, and this entry is an authorization server/,
      ],
      [`{ ${AS}, cwd: . }`, /servers\[0\]\.cwd: a server field, and this entry is an authorization server/],
      [
        `{ ${AS}, client: [node, c.mjs] }`,
        /servers\[0\]\.client: a client field, and this entry is an authorization server/,
      ],
      [
        `{ ${AS}, scenarios: [initialize] }`,
        /servers\[0\]\.scenarios: a client field, and this entry is an authorization server/,
      ],
      [
        '{ name: s, command: [node, s.mjs], clientId: c1 }',
        /servers\[0\]\.clientId: an authorization server field, and this entry is a server/,
      ],
      [
        '{ name: c, client: [node, c.mjs], scope: mcp }',
        /servers\[0\]\.scope: an authorization server field, and this entry is a client/,
      ],
      [`{ ${AS}, resource: "https://mcp.example/#x" }`, /servers\[0\]\.resource: an absolute URI without a fragment/],
      [`{ ${AS}, revision: all }`, /servers\[0\]\.revision: an authorization server is judged at one revision/],
      [`{ ${AS}, port: 0 }`, /servers\[0\]\.port/],
    ];
    for (const [entry, message] of cases) {
      const error = await load(entry).then(
        () => undefined,
        (err: Error) => err,
      );
      expect(error?.name, entry).toBe('ConfigError');
      expect(error?.message).toMatch(message);
    }
  });
});

describe('authorization servers in the matrix', () => {
  let root: string;
  let mock: RunningMock;
  let matrix: Matrix;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mcp-matrix-authz-'));
    mock = await startMock(true);
    const server = await runConformance({ serve: reference, revision: '2025-11-25', seed: 1, only: ['ping/**'] });
    await writeReports(server, join(root, 'server'));
    const authz = await runAuthorizationConformance({
      issuer: mock.issuer,
      clientId: 'mcp-client',
      redirectPort: 0,
      timeoutMs: 5000,
      browserMs: 5000,
    });
    // As a matrix run leaves an authorization entry's folder: the reports and how its run ended.
    await writeReports(authz, join(root, 'mock'));
    await writeFile(
      join(root, 'mock', 'matrix-run.json'),
      JSON.stringify({ name: 'mock', side: 'authorization', exitCode: 1, timedOut: false, durationMs: 300 }),
    );
    // As `mcp-conformance authorization --out` leaves it: the reports alone (report --matrix takes it).
    await writeReports(authz, join(root, 'by-hand'));
    await mkdir(join(root, 'down'));
    await writeFile(
      join(root, 'down', 'matrix-run.json'),
      JSON.stringify({
        name: 'down',
        side: 'authorization',
        exitCode: 143,
        timedOut: true,
        durationMs: 5000,
        reason: 'stopped after its budget of 5 s',
      }),
    );
    matrix = await buildMatrix(
      ['server', 'mock', 'by-hand', 'down'].map((f) => join(root, f)),
      root,
    );
  });
  afterAll(async () => {
    await mock.close();
    await rm(root, { recursive: true, force: true });
  });

  it('follows its JSON Schema', () => {
    expect(matrixSchemaErrors(matrix)).toEqual([]);
  });

  it('shows each authorization server as a row of its side: verdict, counts, issuer, and one column without revision', () => {
    expect(matrix.servers.map((s) => [s.name, s.side, s.verdict])).toEqual([
      ['server', 'server', 'pass'],
      ['mock', 'authorization', 'fail'],
      ['by-hand', 'authorization', 'fail'],
      ['down', 'authorization', 'no-report'],
    ]);
    const [, mockRun, byHand, down] = matrix.servers;
    expect(mockRun.command).toBe(`authorization server ${mock.issuer}`);
    expect(entryName(matrix, mockRun)).toBe(`authorization server ${mock.issuer}`);
    expect(mockRun.summary.fail).toBeGreaterThan(0);
    expect(mockRun).toMatchObject({ folder: 'mock', exitCode: 1, durationMs: 300 });
    expect(byHand.summary).toEqual(mockRun.summary);
    expect(down).toMatchObject({ timedOut: true, reason: 'stopped after its budget of 5 s' });
    expect(matrix.columns.map((c) => [c.folder, c.revision, c.verdict])).toEqual([
      ['server', '2025-11-25', 'pass'],
      ['mock', '-', 'fail'],
      ['by-hand', '-', 'fail'],
      ['down', '-', 'no-report'],
    ]);
    expect(matrix.columns[1].serverInfo).toBeUndefined();
  });

  it('puts the authorization checks in rows of their own, the failure with the requirement behind it', () => {
    const row = matrix.rows.find((r) => r.id === VERIFIER)!;
    expect(row.area).toBe('authz');
    expect(row.cells.map((c) => c?.status ?? null)).toEqual([null, 'fail', 'fail', null]);
    expect(row.cells[1]).toMatchObject({ requirement: { level: 'MUST' } });
    expect(matrix.rows.find((r) => r.id.startsWith('ping/'))!.cells.slice(1)).toEqual([null, null, null]);
  });

  it('names the side in the page: the count, the heading, the issuer, and links to its reports', () => {
    const page = renderMatrixHtml(matrix);
    expect(page).toContain('<p class="meta">1 server · 3 authorization servers · 4 runs');
    expect(page).toContain('<h2>Servers and authorization servers</h2>');
    expect(page).toContain('<h2>Checks by server or authorization server and revision</h2>');
    expect(page).toContain(
      `<a href="mock/index.html">mock</a><br><span class="meta">authorization server ${mock.issuer}`,
    );
    expect(page).toContain(`href="mock/index.html#check-${encodeURIComponent(VERIFIER)}"`);
    expect(page).toContain('stopped after its budget of 5 s');
  });
});
