// Client entries in the matrix, in the test's own process: the reference server, the reference client and the reference
// client with one fault, each run as its command would run it and written as a matrix run writes its folders; the
// matrix shows the clients beside the server, named by clientInfo, and the faulty client's cell differing.
import { matrixSchemaErrors } from './helpers.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServersFile } from '../src/config/servers-file.js';
import { runConformance, type Serve } from '../src/index.js';
import { buildMatrix } from '../src/report/matrix/build.js';
import { renderMatrixHtml } from '../src/report/matrix/html.js';
import { writeReports } from '../src/report/write.js';
import { runClientConformance } from '../src/run/client/run.js';
import { cliArgs } from '../src/run/matrix.js';
import type { Matrix } from '../src/schema/generated/matrix.js';
import { connect } from '../examples/reference-client/client.mjs';
import { createServer, serveStreams } from '../examples/reference-server/mcp.mjs';
import type { ClientContract } from '../src/run/client/run.js';

const reference: Serve = (streams) => serveStreams(createServer(), streams);
const DELETE = 'client-side/http/delete-session';
const UNIQUE = 'client-side/frames/request-id-unique';

/** A client entry's run as `mcp-conformance client` makes it, with its command standing in for the function. */
async function clientRun(folder: string, fault?: string) {
  const report = await runClientConformance({
    client: (c: ClientContract) => connect(c, fault),
    scenarios: ['initialize'],
    timeoutMs: 2000,
    scenarioMs: 5000,
    seed: 1,
  });
  const command = `node client.mjs${fault ? ` --fault ${fault}` : ''}`;
  await writeReports({ ...report, target: { description: command } }, folder);
  // How its run ended, as the matrix records it beside the reports.
  await writeFile(
    join(folder, 'matrix-run.json'),
    JSON.stringify({ name: fault ?? 'reference client', side: 'client', exitCode: 0, timedOut: false, durationMs: 1 }),
  );
}

describe('client entries in the matrix', () => {
  let root: string;
  let matrix: Matrix;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mcp-matrix-clients-'));
    const server = await runConformance({
      serve: reference,
      revision: '2025-11-25',
      seed: 1,
      only: ['lifecycle/**', 'ping/**'],
    });
    await writeReports(server, join(root, 'server'));
    await clientRun(join(root, 'client'));
    await clientRun(join(root, 'reuse-id'), 'reuse-id');
    await clientRun(join(root, 'no-delete'), 'no-delete');
    matrix = await buildMatrix(
      ['server', 'client', 'reuse-id', 'no-delete'].map((f) => join(root, f)),
      root,
    );
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('follows its JSON Schema', () => {
    expect(matrixSchemaErrors(matrix)).toEqual([]);
  });

  it('shows each client beside the server: its side, clientInfo, command, revisions and verdict', () => {
    expect(matrix.servers.map((s) => [s.name, s.side, s.verdict])).toEqual([
      ['server', 'server', 'pass'],
      ['reference client', 'client', 'pass'],
      ['reuse-id', 'client', 'fail'],
      ['no-delete', 'client', 'pass'],
    ]);
    expect(matrix.servers[2].command).toBe('node client.mjs --fault reuse-id');
    expect(matrix.columns.map((c) => [c.revision, c.verdict])).toEqual([
      ['2025-11-25', 'pass'],
      ['2026-07-28 + 2025-11-25', 'pass'],
      ['2026-07-28 + 2025-11-25', 'fail'],
      ['2026-07-28 + 2025-11-25', 'pass'],
    ]);
    expect(matrix.columns[1].clientInfo).toEqual({
      name: 'mcp-conformance-reference-client',
      version: '1.0.0',
      protocolVersion: '2025-11-25',
    });
    expect(matrix.columns[0].serverInfo?.name).toBeDefined();
  });

  it("marks the faulty clients' cells that differ from the reference, with the requirement behind them", () => {
    const row = (id: string) => matrix.rows.find((r) => r.id === id)!;
    expect(row(UNIQUE).cells.map((c) => c?.status ?? null)).toEqual([null, 'pass', 'fail', 'pass']);
    expect(row(UNIQUE).cells[2]).toMatchObject({ differs: true, requirement: { level: 'MUST' } });
    expect(row(DELETE).cells.map((c) => c?.status ?? null)).toEqual([null, 'pass', 'pass', 'warn']);
    expect(row(DELETE).cells[3]).toMatchObject({ differs: true, requirement: { level: 'SHOULD' } });
    // Server and client checks are rows of their own areas: a client's column has no server cell.
    expect(row('lifecycle/initialize/result').cells.slice(1)).toEqual([null, null, null]);
  });

  it('names the client in the page as the server is named: entry, clientInfo and command', () => {
    const page = renderMatrixHtml(matrix);
    expect(page).toContain('<h2>Servers and clients</h2>');
    expect(page).toContain('<p class="meta">1 server · 3 clients · 4 runs');
    expect(page).toContain('client mcp-conformance-reference-client 1.0.0 · node client.mjs --fault reuse-id');
    expect(page).toMatch(/<h3>reuse-id · 2026-07-28 \+ 2025-11-25<\/h3>/);
    const server = matrix.columns[0].serverInfo!;
    expect(page).toContain(`server ${server.name} ${server.version} · ${matrix.servers[0].command}`);
  });
});

describe('a client entry of the servers file', () => {
  it('runs as `mcp-conformance client -- <command…>` with the options that apply to a client', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-matrix-clients-file-'));
    try {
      const file = join(dir, 'servers.yaml');
      await writeFile(
        file,
        'servers:\n  - { name: ref, client: [node, client.mjs], revision: 2025-11-25, scenarios: [initialize], timeout: 2, expectedFailures: base.yaml }\n',
      );
      const [entry] = await loadServersFile(file);
      expect(cliArgs(entry, { budgetMs: 60_000, seed: 3, strict: true, runs: 5 }, 'out/ref')).toEqual([
        'client',
        '--out',
        'out/ref',
        '--seed',
        '3',
        '--timeout',
        '2',
        '--strict',
        '--revision',
        '2025-11-25',
        '--scenario',
        'initialize',
        '--expected-failures',
        join(dir, 'base.yaml'),
        '--',
        'node',
        'client.mjs',
      ]);
      await writeFile(file, 'servers:\n  - { name: ref, client: [node], cwd: . }\n');
      await expect(loadServersFile(file)).rejects.toThrow(
        /servers\[0\]\.cwd: a server field, and this entry is a client/,
      );
      await writeFile(file, 'servers:\n  - { name: ref, command: [node], scenarios: [initialize] }\n');
      await expect(loadServersFile(file)).rejects.toThrow(/scenarios: a client field/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
