// `mcp-conformance authorization` judged on a real authorization server: oidc-provider configured for MCP passes every
// check; each misconfigured copy fails (or warns on) the check that owns its fault, and no other check.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AUTHZ_CHECKS } from '../src/checks/authz/checks.js';
import { judgeAuthz } from '../src/run/authz/run.js';
import { probe } from '../src/run/authz/probe.js';
import { startMock } from './fixtures/authz/oauth2-mock-server.js';
import { type Misconfig, type RunningProvider, startProvider } from './fixtures/authz/oidc-provider.js';
import { runCliHere } from './helpers.js';

const running: RunningProvider[] = [];
afterAll(() => Promise.all(running.map((p) => p.close())));

async function verdicts(misconfig?: Misconfig) {
  const p = await startProvider(misconfig);
  running.push(p);
  const record = await probe({ issuer: p.issuer, scope: 'mcp', timeoutMs: 5000, browserMs: 5000 });
  return judgeAuthz(record);
}

const notPassing = (results: Awaited<ReturnType<typeof verdicts>>) =>
  Object.fromEntries(results.filter((r) => r.status === 'fail' || r.status === 'warn').map((r) => [r.id, r.status]));

describe('authorization server checks on oidc-provider', () => {
  it('passes every check when configured for MCP', async () => {
    const results = await verdicts();
    expect(results.map((r) => [r.id, r.status, r.message]).filter(([, s]) => s !== 'pass')).toEqual([]);
    expect(results.map((r) => r.id)).toEqual(AUTHZ_CHECKS.map((c) => c.id));
    // The provider fetched the document the suite served and took its URL as a client_id.
    expect(results.find((r) => r.id === 'authz/registration/cimd')?.message).toMatch(/as client_id got a code/);
    // The refresh token the refresh replaced was tried again and refused.
    expect(results.find((r) => r.id === 'authz/token/refresh-rotation')?.message).toMatch(
      /the replaced one, used again → .*HTTP 400 invalid_grant/,
    );
  });

  // One row per misconfiguration: the only checks that fail or warn.
  const rows: [Misconfig, Record<string, string>][] = [
    ['no-discovery', { 'authz/metadata/discovery': 'fail' }],
    ['wrong-issuer', { 'authz/metadata/issuer': 'fail' }],
    ['no-s256', { 'authz/metadata/pkce-s256': 'fail' }],
    ['registration-no-client-id', { 'authz/registration/response': 'fail' }],
    ['registration-partial', { 'authz/registration/metadata': 'fail' }],
    ['no-cimd', { 'authz/registration/cimd': 'warn' }],
    ['token-cacheable', { 'authz/code/token': 'fail' }],
    ['wrong-iss', { 'authz/authorize/iss': 'fail' }],
    ['no-iss', { 'authz/authorize/iss-included': 'warn' }],
    ['pkce-optional', { 'authz/pkce/required': 'fail' }],
    ['no-audience', { 'authz/resource/audience': 'warn' }],
    ['no-rotation', { 'authz/token/refresh-rotation': 'fail' }],
    ['refresh-reusable', { 'authz/token/refresh-rotation': 'fail' }],
    ['token-errors-200', { 'authz/token/error-response': 'fail' }],
    ['no-registration', {}],
  ];
  it.each(rows)('%s: %j', async (misconfig, expected) => {
    expect(notPassing(await verdicts(misconfig))).toEqual(expected);
  });

  it('skips the flow with the reason when the authorization endpoint shows a login page, without hanging', async () => {
    const results = await verdicts('login-page');
    expect(notPassing(results)).toEqual({});
    const flow = results.find((r) => r.id === 'authz/code/token');
    expect(flow?.status).toBe('skip');
    expect(flow?.message).toMatch(/needs a person; set BROWSER/);
  });

  it('skips with the reason when a BROWSER never reaches the redirect_uri, at the end of its budget', async () => {
    const p = await startProvider('login-page');
    running.push(p);
    const record = await probe({ issuer: p.issuer, scope: 'mcp', browser: 'true', timeoutMs: 5000, browserMs: 300 });
    const flow = judgeAuthz(record).find((r) => r.id === 'authz/code/token');
    expect(flow?.status).toBe('skip');
    expect(flow?.message).toMatch(/the browser \(true\) did not reach the redirect_uri within 0.3 s/);
  });

  it('fails a provider that rotates but still takes the replaced refresh token on that reuse', async () => {
    const results = await verdicts('refresh-reusable');
    expect(results.find((r) => r.id === 'authz/token/refresh-rotation')?.message).toMatch(
      /^the replaced refresh token, used again, still got an access token: POST .* → HTTP 200/,
    );
  });

  it('says which clients break in a failure', async () => {
    const results = await verdicts('no-s256');
    expect(results.find((r) => r.id === 'authz/metadata/pkce-s256')?.message).toMatch(/breaks: every MCP client/);
  });
});

describe('authorization server checks on oauth2-mock-server (a pre-registered client)', () => {
  const judged = async (pkceVerifierOnly: boolean) => {
    const m = await startMock(pkceVerifierOnly);
    running.push(m);
    return notPassing(
      judgeAuthz(await probe({ issuer: m.issuer, clientId: 'mcp-client', timeoutMs: 5000, browserMs: 5000 })),
    );
  };

  it('as it comes: no client ID metadata documents, a code without PKCE, a code redeemed without its verifier, no audience, a replaced refresh token taken', async () => {
    // No iss in its authorization responses either (RFC 9207, a SHOULD of 2026-07-28): a warning.
    expect(await judged(false)).toEqual({
      'authz/registration/cimd': 'warn',
      'authz/authorize/iss-included': 'warn',
      'authz/pkce/required': 'fail',
      'authz/pkce/verifier': 'fail',
      'authz/resource/audience': 'warn',
      'authz/token/refresh-rotation': 'fail',
    });
  });

  it('hooked to leave its verifier alone as its one fault: only authz/pkce/verifier fails', async () => {
    // It has no client ID metadata documents and sends no iss either: SHOULDs, so warnings beside the one failure.
    expect(await judged(true)).toEqual({
      'authz/registration/cimd': 'warn',
      'authz/authorize/iss-included': 'warn',
      'authz/pkce/verifier': 'fail',
    });
  });
});

describe('mcp-conformance authorization --expected-failures', () => {
  // A provider without S256: authz/metadata/pkce-s256 fails, and the flow checks skip.
  const run = async (entries: string) => {
    const p = await startProvider('no-s256');
    running.push(p);
    const file = join(await mkdtemp(join(tmpdir(), 'authz-baseline-')), 'expected-failures.yaml');
    await writeFile(file, entries);
    return runCliHere(['authorization', '--url', p.issuer, '--expected-failures', file]);
  };

  it('takes a listed failure as expected: exit 0, the report marks it', async () => {
    const r = await run('- id: authz/metadata/pkce-s256\n  reason: our provider offers plain only\n');
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.report?.checks.find((c) => c.id === 'authz/metadata/pkce-s256')?.baseline?.entry).toBe(
      'authz/metadata/pkce-s256',
    );
    expect(r.stdout).toContain('1 expected, 0 stale, 0 unexpected');
  });

  it('fails the run on a stale entry, as a server run does', async () => {
    const r = await run(
      '- id: authz/metadata/pkce-s256\n  reason: plain only\n- id: authz/metadata/issuer\n  reason: was wrong once\n',
    );
    expect(r.exitCode, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('1 expected, 1 stale, 0 unexpected');
  });
});
