// `mcp-conformance matrix` with client entries, as a user runs it: the reference server, the reference client and a
// faulty one as processes, each in its own folder, side by side in one matrix.
import { readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import type { Matrix } from '../../src/schema/generated/matrix.js';
import type { Report } from '../../src/schema/generated/report.js';
import { CLI, REFERENCE, ROOT } from '../helpers.js';

const CLIENT = join(ROOT, 'examples/reference-client/client.mjs');
const FAULTY_CLIENT = join(ROOT, 'test/e2e/clients/faulty-reference-client.mjs');

describe('mcp-conformance matrix with clients', () => {
  it('runs each client as `client -- <command>` into its own folder and shows it beside the server, a faulty one differing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-matrix-clients-e2e-'));
    const q = JSON.stringify;
    await writeFile(
      join(dir, 'servers.yaml'),
      [
        'servers:',
        `  - { name: reference-server, target: ${q(REFERENCE)}, revision: 2025-11-25 }`,
        `  - { name: reference-client, client: [node, ${q(CLIENT)}], scenarios: [initialize], labels: { side: client } }`,
        `  - { name: reuse-id, client: [node, ${q(FAULTY_CLIENT)}, reuse-id], scenarios: [initialize] }`,
        '  - { name: no-client, client: [./no-such-client], scenarios: [initialize], revision: 2025-11-25 }',
      ].join('\n'),
    );
    const out = join(dir, 'out');
    try {
      const r = await execa(
        process.execPath,
        [CLI, 'matrix', join(dir, 'servers.yaml'), '--out', out, '--jobs', '2', '--seed', '1'],
        { reject: false, env: { NO_COLOR: '1', GITHUB_ACTIONS: '' }, timeout: 170_000 },
      );
      expect(r.exitCode, String(r.stdout) + String(r.stderr)).toBe(1);
      expect(String(r.stdout)).toMatch(
        /^reuse-id\s+FAIL\s.*client mcp-conformance-reference-client 1\.0\.0 · node \S+faulty-reference-client\.mjs reuse-id$/m,
      );
      const matrix = JSON.parse(await readFile(join(out, 'matrix.json'), 'utf8')) as Matrix;
      expect(matrix.servers.map((s) => [s.name, s.side, s.verdict])).toEqual([
        ['reference-server', 'server', 'pass'],
        ['reference-client', 'client', 'pass'],
        ['reuse-id', 'client', 'fail'],
        ['no-client', 'client', 'error'],
      ]);
      expect(matrix.servers[1].command).toBe(`node ${CLIENT}`);
      const [, reference, faulty] = matrix.columns;
      expect(reference).toMatchObject({
        revision: '2026-07-28 + 2025-11-25',
        clientInfo: { name: 'mcp-conformance-reference-client', version: '1.0.0' },
      });
      expect(faulty.verdict).toBe('fail');
      // The client that never started errs on every check; with it no status is a majority of the three clients.
      const row = matrix.rows.find((x) => x.id === 'client-side/frames/request-id-unique')!;
      expect(row.cells.map((c) => c?.status ?? null)).toEqual([null, 'pass', 'fail', 'error']);
      expect(row.cells[2]).toMatchObject({ status: 'fail', requirement: { level: 'MUST' } });
      expect(matrix.servers[3].reason ?? row.cells[3]?.message).toMatch(/no-such-client/);
      // Each client's folder holds the reports `mcp-conformance client` writes, and how its run ended.
      expect(readdirSync(join(out, 'reuse-id'))).toEqual(
        expect.arrayContaining(['report.json', 'index.html', 'junit.xml', 'matrix-run.json', 'console.txt']),
      );
      const report = JSON.parse(await readFile(join(out, 'reuse-id', 'report.json'), 'utf8')) as Report;
      expect(report.client?.scenarios.map((s) => s.name)).toEqual(['initialize', 'initialize']);
      const html = await readFile(join(out, 'matrix.html'), 'utf8');
      expect(html).toContain('<h2>Servers and clients</h2>');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
