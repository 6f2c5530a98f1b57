// `mcp-conformance matrix` with an authorization entry, as a user runs it: oauth2-mock-server in this process, judged by
// `mcp-conformance authorization` in its own folder, its one failure excused by the entry's baseline; and a servers file
// whose issuer is no URL, refused before anything runs.
import { readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Matrix } from '../../src/schema/generated/matrix.js';
import type { Report } from '../../src/schema/generated/report.js';
import { type RunningMock, startMock } from '../fixtures/authz/oauth2-mock-server.js';
import { CLI, freePort } from '../helpers.js';

const VERIFIER = 'authz/pkce/verifier';

describe('mcp-conformance matrix with an authorization server', () => {
  let dir: string;
  let mock: RunningMock;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-matrix-authz-e2e-'));
    mock = await startMock(true);
  });
  afterAll(async () => {
    await mock.close();
    await rm(dir, { recursive: true, force: true });
  });
  const matrix = (file: string, out: string) =>
    execa(process.execPath, [CLI, 'matrix', file, '--out', out], {
      reject: false,
      env: { NO_COLOR: '1', GITHUB_ACTIONS: '' },
      timeout: 120_000,
    });

  it('runs `authorization --url ISSUER` into its own folder and shows it as a row, its baseline applied', async () => {
    const q = JSON.stringify;
    // The mock's one fault (it redeems a code without its code_verifier), expected: the entry passes.
    await writeFile(
      join(dir, 'expected.yaml'),
      `- { id: ${VERIFIER}, reason: oauth2-mock-server does not check the code_verifier }\n`,
    );
    await writeFile(
      join(dir, 'servers.yaml'),
      [
        'servers:',
        `  - name: mock`,
        `    authorization: ${q(mock.issuer)}`,
        '    clientId: mcp-client',
        `    port: ${await freePort()}`,
        '    scope: mcp',
        '    expectedFailures: expected.yaml',
        '    labels: { implementation: oauth2-mock-server }',
      ].join('\n'),
    );
    const out = join(dir, 'out');
    const r = await matrix(join(dir, 'servers.yaml'), out);
    expect(r.exitCode, String(r.stdout) + String(r.stderr)).toBe(0);
    expect(String(r.stdout)).toMatch(
      new RegExp(
        `^mock\\s+PASS\\s+\\d+ checks: .*  authorization server ${mock.issuer.replace(/[.:/]/g, '\\$&')}$`,
        'm',
      ),
    );
    const m = JSON.parse(await readFile(join(out, 'matrix.json'), 'utf8')) as Matrix;
    expect(m.servers).toEqual([
      expect.objectContaining({
        name: 'mock',
        side: 'authorization',
        command: `authorization server ${mock.issuer}`,
        folder: 'mock',
        verdict: 'pass',
        exitCode: 0,
        labels: { implementation: 'oauth2-mock-server' },
      }),
    ]);
    expect(m.columns.map((c) => [c.revision, c.verdict])).toEqual([['-', 'pass']]);
    expect(m.rows.find((x) => x.id === VERIFIER)?.cells[0]).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('(an expected failure)'),
    });
    // The folder holds the reports `mcp-conformance authorization` writes, and how its run ended.
    expect(readdirSync(join(out, 'mock'))).toEqual(
      expect.arrayContaining(['report.json', 'index.html', 'junit.xml', 'matrix-run.json', 'console.txt']),
    );
    const report = JSON.parse(await readFile(join(out, 'mock', 'report.json'), 'utf8')) as Report;
    expect(report.summary).toEqual(m.servers[0].summary);
    const page = await readFile(join(out, 'matrix.html'), 'utf8');
    expect(page).toContain('<h2>Servers and authorization servers</h2>');
    expect(page).toContain('<a href="mock/index.html">mock</a>');
  });

  it('refuses an issuer that is no URL with the file, line and field, and no stack trace', async () => {
    await writeFile(join(dir, 'bad.yaml'), 'servers:\n  - { name: as, authorization: as.example }\n');
    const r = await matrix(join(dir, 'bad.yaml'), join(dir, 'bad-out'));
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toMatch(/bad\.yaml:2:\d+: servers\[0\]\.authorization: the issuer's URL/);
    expect(String(r.stderr)).not.toMatch(/^\s+at /m);
  });
});
