// The official suite's command lines as CI scripts run them, with only the package name changed: the client line on
// the reference client, the server line on the reference server over HTTP, each read back as such a script reads
// `results/*/checks.json`.
import { execa } from 'execa';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../helpers.js';

const CLIENT = join(ROOT, 'examples/reference-client/client.mjs');
const HTTP_SERVER = join(ROOT, 'examples/reference-server/http.mjs');

/** Runs the built CLI in a fresh folder, as a CI step runs it in its checkout. */
async function official(args: string[]) {
  const cwd = await mkdtemp(join(tmpdir(), 'official-e2e-'));
  const r = await execa(process.execPath, [CLI, ...args], {
    cwd,
    reject: false,
    env: { GITHUB_ACTIONS: '', NO_COLOR: '1' },
    timeout: 120_000,
  });
  return { exitCode: r.exitCode, output: `${r.stdout}\n${r.stderr}`, cwd };
}

/** What a script written for the official results reads: each folder's checks.json. */
async function checksIn(
  dir: string,
): Promise<Record<string, { id: string; status: string; details: { check: string } }[]>> {
  const folders = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory());
  const read = await Promise.all(
    folders.map(async (d) => [d.name, JSON.parse(await readFile(join(dir, d.name, 'checks.json'), 'utf8'))] as const),
  );
  return Object.fromEntries(read);
}

describe.concurrent('the official command line', () => {
  it('client --command … --scenario … -o results: the reference client passes, one folder per scenario run', async () => {
    const r = await official([
      'client',
      '--command',
      `node ${CLIENT}`,
      '--scenario',
      'initialize',
      '--spec-version',
      '2025-11-25',
      '--timeout',
      '20000',
      '-o',
      'results',
    ]);
    expect(r.exitCode, r.output).toBe(0);
    const results = await checksIn(join(r.cwd, 'results'));
    const names = Object.keys(results);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^initialize-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/);
    const checks = results[names[0]];
    expect(checks.some((c) => c.status === 'SUCCESS')).toBe(true);
    expect(checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')).toEqual([]);
    expect(checks.every((c) => c.id === c.details.check.replaceAll('/', '-'))).toBe(true);
    // The client's output beside its checks, as the official runner keeps it.
    expect((await readdir(join(r.cwd, 'results', names[0]))).sort()).toEqual([
      'checks.json',
      'stderr.txt',
      'stdout.txt',
    ]);
    // Our reports are beside them.
    expect(JSON.parse(await readFile(join(r.cwd, 'results', 'report.json'), 'utf8')).client.scenarios).toHaveLength(1);
  });

  it('server --url … -o results --expected-failures: folders by area, and a listed scenario that passes is stale (exit 1)', async () => {
    const { server, url } = await referenceOverHttp();
    try {
      const dir = await mkdtemp(join(tmpdir(), 'official-baseline-'));
      const baseline = join(dir, 'conformance-baseline.yml');
      await writeFile(baseline, 'server:\n  - tools\nclient:\n  - initialize\n');
      const r = await official([
        'server',
        '--url',
        url,
        '--scenario',
        'tools-list',
        '--scenario',
        'ping',
        '-o',
        'results',
        '--expected-failures',
        baseline,
      ]);
      expect(r.exitCode, r.output).toBe(1);
      expect(r.output).toMatch(/Stale entries \(now passing\):\n {2}✓ tools/);
      const results = await checksIn(join(r.cwd, 'results'));
      expect(
        Object.keys(results)
          .map((n) => n.replace(/-\d{4}-.*$/, ''))
          .sort(),
        // Our areas of the checks that ran, and each official scenario those checks judge (tools-list's
        // schema/results judges prompts-list's rule too).
      ).toEqual(expect.arrayContaining(['server-ping', 'server-tools', 'server-tools-list', 'server-schema']));
      const all = Object.values(results).flat();
      expect(all.some((c) => c.status === 'SUCCESS')).toBe(true);
      expect(all.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')).toEqual([]);
    } finally {
      server.kill();
    }
  });

  it('server --url … --requirements 2025-11-25: the reference server meets the set, scored by official scenario', async () => {
    const { server, url } = await referenceOverHttp();
    try {
      const r = await official(['server', '--url', url, '--requirements', '2025-11-25', '-o', 'results']);
      expect(r.exitCode, r.output).toBe(0);
      expect(r.output).toMatch(/^required {4}2025-11-25 \(frozen\): \d+ scenarios scored, 0 failing$/m);
      expect(r.output).toMatch(/^our areas {3}\d+ \(not scored\)/m);
      expect(r.output).toMatch(/^not here {4}.*tools-call-image \(fixture-only\)/m);
      // Each scored scenario has its folder, beside our areas'.
      const folders = Object.keys(await checksIn(join(r.cwd, 'results'))).map((n) => n.replace(/-\d{4}-.*$/, ''));
      expect(folders).toEqual(expect.arrayContaining(['server-server-initialize', 'server-ping', 'server-lifecycle']));
    } finally {
      server.kill();
    }
  });
});

/** The reference server over HTTP on a free port, and the URL it said it serves MCP at. */
async function referenceOverHttp() {
  const server = execa(process.execPath, [HTTP_SERVER, '--port', '0'], { reject: false });
  const url = await new Promise<string>((resolve) =>
    server.stderr!.on('data', (d: Buffer) => {
      const m = /serving MCP at (\S+)/.exec(String(d));
      if (m) resolve(m[1]!);
    }),
  );
  return { server, url };
}
