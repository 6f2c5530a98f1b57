import { execa } from 'execa';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalIssuer } from '../../src/auth/issuer.js';
import { describe, expect, it } from 'vitest';
import { AUTH_CHECKS } from '../../src/checks/auth/checks.js';
import { OFF } from '../../src/checks/auth/probe.js';
import { NEEDS_TOKEN } from '../../src/run/locked.js';
import { type ConformanceOptions, runConformance } from '../../src/index.js';
import type { Report } from '../../src/schema/generated/report.js';
import { AUTH_FAULT_ROWS } from '../fault-rows.js';
import { REFERENCE, ROOT, runCli } from '../helpers.js';

const HTTP_REFERENCE = join(ROOT, 'examples/reference-server/http.mjs');
const FAULTY_HTTP = join(ROOT, 'test/fixtures/servers/faulty-http-server.mjs');
const STARTED = { httpUrl: 'http://127.0.0.1:{port}/mcp', port: 'auto' as const, seed: 7, runs: 5 };
const FAULTS = AUTH_FAULT_ROWS;

const auth = (r: Report) => r.checks.filter((c) => c.id.startsWith('auth/'));
const notPassing = (r: Report) =>
  r.checks.filter((c) => c.status !== 'pass' && c.status !== 'skip').map((c) => `${c.id}: ${c.status} ${c.message}`);

describe('a server that wants a token, run without one', () => {
  it('reports the authorization area; every other check skips because it needs a token', async () => {
    const report = await runConformance({
      ...STARTED,
      target: [process.execPath, HTTP_REFERENCE, '--auth'],
      revision: '2025-11-25',
    });
    expect(notPassing(report)).toEqual([]);
    const passed = auth(report)
      .filter((c) => c.status === 'pass')
      .map((c) => c.id);
    for (const id of [
      'auth/challenge/unauthorized-401',
      'auth/challenge/bearer',
      'auth/metadata/document',
      'auth/metadata/authorization-servers',
      'auth/token/forged',
      'auth/unauthenticated/all-methods',
    ])
      expect(passed).toContain(id);
    const others = report.checks.filter((c) => !c.id.startsWith('auth/'));
    expect(others.length).toBeGreaterThan(50);
    expect(
      others
        .filter((c) => c.status !== 'skip' || c.message !== NEEDS_TOKEN)
        .map((c) => `${c.id}: ${c.status} ${c.message}`),
    ).toEqual([]);
  });

  it('on the stateless wire too (server/discover is the first request)', async () => {
    const report = await runConformance({
      ...STARTED,
      target: [process.execPath, HTTP_REFERENCE, '--auth', '--revision', '2026-07-28'],
      revision: '2026-07-28',
      only: ['auth/**'],
    });
    expect(notPassing(report)).toEqual([]);
    expect(auth(report).find((c) => c.id === 'auth/metadata/no-offline-access')?.status).toBe('pass');
  });
});

describe('servers without authorization', () => {
  it('an HTTP server that serves without a token gets the area skipped with one reason', async () => {
    const report = await runConformance({
      ...STARTED,
      target: [process.execPath, HTTP_REFERENCE],
      revision: '2025-11-25',
      only: ['auth/**'],
    });
    expect(auth(report).length).toBe(AUTH_CHECKS.length);
    // The checks of other revisions say so instead.
    expect(
      auth(report).filter((c) => c.status !== 'skip' || (c.message !== OFF && !c.message.startsWith('applies to'))),
    ).toEqual([]);
  });

  it('a stdio server gets the area skipped: it takes credentials from the environment', async () => {
    const report = await runConformance({ target: REFERENCE, revision: '2025-11-25', only: ['auth/**'] });
    expect(
      auth(report).filter(
        (c) => c.status !== 'skip' || c.message !== 'stdio servers take credentials from the environment',
      ),
    ).toEqual([]);
  });
});

describe('each authorization fault trips exactly the check that targets it', () => {
  it('every check has a fault', () => {
    expect(AUTH_CHECKS.map((c) => c.id).filter((id) => !FAULTS.some((f) => f.check === id))).toEqual([]);
  });
  for (const { fault, check, expect: status, ...options } of FAULTS) {
    it(`${fault} → ${check} ${status}`, async () => {
      const revision = (options?.revision ?? '2025-11-25') as ConformanceOptions['revision'];
      const report = await runConformance({
        ...STARTED,
        target: [
          process.execPath,
          FAULTY_HTTP,
          '--auth',
          ...(revision === '2026-07-28' ? ['--revision', revision] : []),
        ],
        env: { MCP_HTTP_FAULTS: fault },
        revision,
        only: ['auth/**'],
        authServer: options?.authServer,
      });
      expect(
        notPassing(report)
          .map((line) => line.split(' ').slice(0, 2).join(' '))
          .sort(),
      ).toEqual([`${check}: ${status}`, ...(options?.also ?? [])].sort());
    });
  }
});

describe('a token the user gives (--token-env)', () => {
  it('runs the whole suite with it, its tampered copies are refused, and no output shows it or its signature', async () => {
    const issuer = await LocalIssuer.start();
    const server = execa(process.execPath, [HTTP_REFERENCE, '--auth', '--port', '0'], {
      reject: false,
      env: { MCP_CONFORMANCE_ISSUER: issuer.issuer },
    });
    try {
      const url = await new Promise<string>((resolve) =>
        server.stderr!.on('data', (d: Buffer) => {
          const m = /serving MCP at (\S+)/.exec(String(d));
          if (m) resolve(m[1]!);
        }),
      );
      const token = await issuer.issue({ aud: url, scope: 'mcp' });
      const signature = token.split('.')[2]!;
      const dir = await mkdtemp(join(tmpdir(), 'mcpc-auth-'));
      const github = {
        GITHUB_ACTIONS: 'true',
        GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
        GITHUB_OUTPUT: join(dir, 'output'),
      };
      const r = await runCli(
        [url, '--seed', '7', '--runs', '5', '--revision', '2025-11-25', '--verbose', '--token-env', 'MY_MCP_TOKEN'],
        { MY_MCP_TOKEN: token, ...github },
      );
      expect(notPassing(r.report!)).toEqual([]);
      const passed = auth(r.report!)
        .filter((c) => c.status === 'pass')
        .map((c) => c.id);
      for (const id of [
        'auth/token/tampered',
        'auth/session/not-authentication',
        'auth/token/query-string',
        'auth/token/forged',
      ])
        expect(passed).toContain(id);
      // The rest of the suite ran with the token.
      expect(r.report!.checks.filter((c) => !c.id.startsWith('auth/') && c.status === 'pass').length).toBeGreaterThan(
        50,
      );
      const outputs = [
        r.stdout,
        r.stderr,
        ...(await Promise.all((await readdir(r.out)).map((f) => readFile(join(r.out, f), 'utf8')))),
        ...(await Promise.all([github.GITHUB_STEP_SUMMARY, github.GITHUB_OUTPUT].map((f) => readFile(f, 'utf8')))),
      ];
      expect(outputs.length).toBeGreaterThanOrEqual(8);
      for (const text of outputs) {
        expect(text).not.toContain(token);
        expect(text).not.toContain(signature);
      }
    } finally {
      server.kill();
      await server;
      await issuer.close();
    }
  });
});
