import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUTH_CHECKS } from '../../src/checks/auth.js';
import { OFF } from '../../src/checks/auth-probe.js';
import { NEEDS_TOKEN } from '../../src/run/locked.js';
import { runConformance } from '../../src/index.js';
import type { Report } from '../../src/schema/generated/report.js';
import { AUTH_FAULT_ROWS } from '../fixtures/servers/faults.mjs';
import { REFERENCE, ROOT } from '../helpers.js';

const HTTP_REFERENCE = join(ROOT, 'examples/reference-server/http.mjs');
const FAULTY_HTTP = join(ROOT, 'test/fixtures/servers/faulty-http-server.mjs');
const STARTED = { httpUrl: 'http://127.0.0.1:{port}/mcp', port: 'auto' as const, seed: 7, runs: 5 };
const FAULTS = AUTH_FAULT_ROWS as [fault: string, check: string, status: 'fail' | 'warn', why: string, options?: { revision?: string }][];

const auth = (r: Report) => r.checks.filter((c) => c.id.startsWith('auth/'));
const notPassing = (r: Report) => r.checks.filter((c) => c.status !== 'pass' && c.status !== 'skip').map((c) => `${c.id}: ${c.status} ${c.message}`);

describe('a server that wants a token, run without one', () => {
  it('reports the authorization area; every other check skips because it needs a token', async () => {
    const report = await runConformance({ ...STARTED, target: [process.execPath, HTTP_REFERENCE, '--auth'], revision: '2025-11-25' });
    expect(notPassing(report)).toEqual([]);
    const passed = auth(report).filter((c) => c.status === 'pass').map((c) => c.id);
    for (const id of ['auth/challenge/unauthorized-401', 'auth/challenge/bearer', 'auth/metadata/document', 'auth/metadata/authorization-servers', 'auth/token/forged', 'auth/unauthenticated/all-methods']) expect(passed).toContain(id);
    const others = report.checks.filter((c) => !c.id.startsWith('auth/'));
    expect(others.length).toBeGreaterThan(50);
    expect(others.filter((c) => c.status !== 'skip' || c.message !== NEEDS_TOKEN).map((c) => `${c.id}: ${c.status} ${c.message}`)).toEqual([]);
  });

  it('on the stateless wire too (server/discover is the first request)', async () => {
    const report = await runConformance({ ...STARTED, target: [process.execPath, HTTP_REFERENCE, '--auth', '--revision', '2026-07-28'], revision: '2026-07-28', only: ['auth/**'] });
    expect(notPassing(report)).toEqual([]);
    expect(auth(report).find((c) => c.id === 'auth/metadata/no-offline-access')?.status).toBe('pass');
  });
});

describe('servers without authorization', () => {
  it('an HTTP server that serves without a token gets the area skipped with one reason', async () => {
    const report = await runConformance({ ...STARTED, target: [process.execPath, HTTP_REFERENCE], revision: '2025-11-25', only: ['auth/**'] });
    expect(auth(report).length).toBe(AUTH_CHECKS.length);
    // The checks of other revisions say so instead.
    expect(auth(report).filter((c) => c.status !== 'skip' || (c.message !== OFF && !c.message.startsWith('applies to')))).toEqual([]);
  });

  it('a stdio server gets the area skipped: it takes credentials from the environment', async () => {
    const report = await runConformance({ target: REFERENCE, revision: '2025-11-25', only: ['auth/**'] });
    expect(auth(report).filter((c) => c.status !== 'skip' || c.message !== 'stdio servers take credentials from the environment')).toEqual([]);
  });
});

describe('each authorization fault trips exactly the check that targets it', () => {
  it('every check without a token has a fault', () => {
    const needsToken = new Set(['auth/token/tampered', 'auth/session/not-authentication']);
    expect(AUTH_CHECKS.map((c) => c.id).filter((id) => !needsToken.has(id) && !FAULTS.some((f) => f[1] === id))).toEqual([]);
  });
  for (const [fault, check, status, , options] of FAULTS) {
    it(`${fault} → ${check} ${status}`, async () => {
      const revision = options?.revision ?? '2025-11-25';
      const report = await runConformance({
        ...STARTED,
        target: [process.execPath, FAULTY_HTTP, '--auth', ...(revision === '2026-07-28' ? ['--revision', revision] : [])],
        env: { MCP_HTTP_FAULTS: fault },
        revision,
        only: ['auth/**'],
      });
      expect(notPassing(report).map((line) => line.split(' ').slice(0, 2).join(' '))).toEqual([`${check}: ${status}`]);
    });
  }
});
