// Client authorization: the reference OAuth client passes every scenario (the authorization checks and the MCP
// checks of the session it authorized), each faulty client (one fault each, test/fixtures/clients/auth-faults.yaml)
// trips the check that owns its fault and no other, and no secret the run saw appears in what it reports.
import { generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { connect } from '../examples/reference-client/oauth.mjs';
import { PRE_REGISTERED, SCENARIOS } from '../src/auth/scenarios.js';
import { CLIENT_AUTH_CHECKS } from '../src/checks/client-side/auth.js';
import { CLIENT_CHECKS } from '../src/checks/client-side/index.js';
import { type ClientContract, authPlan, judge, runClientConformance, runScenario } from '../src/run/client/run.js';
import { mcpScenarioOf } from '../src/auth/scenarios.js';
import type { Report } from '../src/schema/generated/report.js';
import type { ScenarioRecord } from '../src/checks/kit/client-check.js';
import { accessTokenHash, readProof, thumbprint } from '../src/auth/dpop.js';

interface Row {
  fault: string;
  check: string;
  /** `note`: a pass whose message notes what was seen (a check with no spec sentence to warn by). */
  expect: 'fail' | 'warn' | 'note';
  scenario: string;
  /** The revision to run it at (default: the scenario's first). */
  revision?: string;
  why: string;
}
const ROWS = (
  parse(readFileSync(new URL('./fixtures/clients/auth-faults.yaml', import.meta.url), 'utf8')) as { faults: Row[] }
).faults;

/** The reference OAuth client in this process, with the official contract as its environment. */
const reference =
  (faults: Record<string, boolean> = {}) =>
  (c: ClientContract) =>
    connect(
      c.url,
      {
        MCP_CONFORMANCE_SCENARIO: c.scenario,
        MCP_CONFORMANCE_PROTOCOL_VERSION: c.protocolVersion,
        MCP_CONFORMANCE_CONTEXT: JSON.stringify(c.context),
      },
      faults,
    ) as Promise<void>;

/** Tokens, codes and secrets the servers issue look like this; none may leave the run. */
const ISSUED = /\b(at|rt|code|secret)-[A-Za-z0-9_-]{24}\b/;
const options = { timeoutMs: 2000, scenarioMs: 10_000 };

/** One run of the reference OAuth client (with `faults`) through scenario `name`, at `revision` or its first. */
async function recordOf(name: string, faults: Record<string, boolean> = {}, revision?: string) {
  const pick = authPlan({ revision }, [name])[0];
  if (!pick) throw new Error(`no scenario ${name}`);
  return runScenario(mcpScenarioOf(pick.scenario), pick.revision, { ...options, client: reference(faults) }, pick);
}

describe('client authorization scenarios', () => {
  let report: Report;
  beforeAll(async () => {
    report = await runClientConformance({ ...options, client: reference(), scenarios: SCENARIOS.map((s) => s.name) });
  }, 120_000);

  it('the reference client passes every scenario, the MCP checks of its sessions too', () => {
    const ran = new Set(report.client?.scenarios?.map((s) => s.name));
    expect(SCENARIOS.filter((s) => !ran.has(s.name)).map((s) => s.name)).toEqual([]);
    const bad = report.checks.filter((c) => c.status !== 'pass' && c.status !== 'skip');
    expect(bad.map((c) => `${c.id}: ${c.status}: ${c.message}`)).toEqual([]);
    // Every authorization check has something to judge (the extension-only one and those of 2026-07-28 too), and the
    // session's checks judge.
    expect(
      report.checks.filter((c) => c.id.startsWith('client-side/auth/') && c.status !== 'pass').map((c) => c.id),
    ).toEqual([]);
    for (const id of ['client-side/frames/json', 'client-side/lifecycle/initialize-first', 'client-side/http/accept'])
      expect(report.checks.find((c) => c.id === id)?.status, id).toBe('pass');
  });

  it('reports no secret the run issued or saw', () => {
    const text = JSON.stringify(report);
    expect(text).not.toMatch(ISSUED);
    expect(text).not.toContain(PRE_REGISTERED.client_secret);
    expect(text).not.toContain('PRIVATE KEY');
    // The JWTs the context hands out (a workload's, an ID token) and those issued (ID-JAGs) read *** too.
    expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/);
  });

  it('has a fault row for every authorization check but the extension-only one', () => {
    const owned = new Set(ROWS.map((r) => r.check));
    expect(
      CLIENT_AUTH_CHECKS.map((c) => c.id).filter(
        (id) => !owned.has(id) && id !== 'client-side/auth/client-credentials',
      ),
    ).toEqual([]);
  });
});

describe('a client that makes one request past initialization', () => {
  it('is judged on its discovery at the first authorization server of a migration, which never bites it', async () => {
    const record = await recordOf('auth/authorization-server-migration', { 'list-only': true });
    const results = judge([...CLIENT_CHECKS, ...CLIENT_AUTH_CHECKS], [record]);
    const status = (id: string) => results.find((r) => r.id === `client-side/auth/${id}`)?.status;
    expect(status('as-discovery')).toBe('pass');
    expect(status('as-migration')).toBe('skip');
    expect(results.filter((r) => r.status === 'fail' || r.status === 'warn').map((r) => r.id)).toEqual([]);
  });
});

describe('a client whose flow breaks before MCP', () => {
  it('is judged on the requests it made; the checks of MCP frames skip, naming what it did', async () => {
    const report = await runClientConformance({
      ...options,
      client: reference({ 'no-pkce': true, 'stop-before-token': true }),
      scenarios: ['auth/metadata-default'],
      revision: '2025-11-25',
    });
    const byId = (id: string) => report.checks.find((c) => c.id === id);
    expect(report.checks.filter((c) => c.status === 'error').map((c) => c.id)).toEqual([]);
    expect(byId('client-side/auth/pkce')?.status).toBe('fail');
    expect(byId('client-side/auth/pkce')?.message).toMatch(/#\d+ GET http.*\/authorize/);
    const frames = byId('client-side/frames/json');
    expect(frames?.status).toBe('skip');
    expect(frames?.message).toMatch(
      /no MCP message reached the test server \(\d+ HTTP requests: POST \/mcp → 401; .*exited with code 1/,
    );
  });

  it('is a harness error only when it made no request at all', async () => {
    const report = await runClientConformance({
      ...options,
      client: async () => {
        throw new Error('crashed at start');
      },
      scenarios: ['auth/metadata-default'],
      revision: '2025-11-25',
    });
    expect(new Set(report.checks.map((c) => c.status))).toEqual(new Set(['error']));
    expect(report.checks[0]?.message).toMatch(/made no request to the test server or the authorization servers/);
  });
});

describe('the step-up scope union (2026-07-28)', () => {
  it('the reference client asks again for what it had as well; the check judges 2026-07-28 runs only', async () => {
    const at = (revision: string) => recordOf('auth/scope-step-up', {}, revision);
    const record = await at('2026-07-28');
    // The 403 names the new scope alone, and scopes_supported neither of them: the union is the client's own.
    const forbidden = record.auth?.rig.find((e) => e.status === 403)[0];
    expect(forbidden?.answer['www-authenticate']).toMatch(/scope="mcp:write"/);
    const union = (r: ScenarioRecord) =>
      judge(CLIENT_AUTH_CHECKS, [r]).find((c) => c.id === 'client-side/auth/scope-union')?.status;
    expect(union(record)).toBe('pass');
    expect(union(await at('2025-11-25'))).toBe('skip');
  });
});

describe('a public client that registers without a token endpoint method', () => {
  it.each(['auth/metadata-default', 'auth/dpop'])(
    'is registered as one (none, no secret) and passes %s',
    async (name) => {
      const record = await recordOf(name, { 'no-auth-method': true });
      const registered = [...(record.auth?.rig.clients.values() ?? [])].filter((c) => c.via === 'dcr');
      expect(registered.map((c) => [c.token_endpoint_auth_method, c.client_secret])).toEqual([['none', undefined]]);
      const results = judge([...CLIENT_CHECKS, ...CLIENT_AUTH_CHECKS], [record]);
      expect(results.filter((r) => r.status === 'fail' || r.status === 'warn').map((r) => r.id)).toEqual([]);
      expect(results.find((r) => r.id === 'client-side/auth/authorizes')?.status).toBe('pass');
    },
  );

  it('is still held to client_secret_basic where the scenario offers nothing else', async () => {
    const record = await recordOf('auth/token-endpoint-auth-basic', { 'no-auth-method': true });
    const got = judge(CLIENT_AUTH_CHECKS, [record]).find((r) => r.id === 'client-side/auth/token-endpoint-auth');
    expect(`${got?.status}: ${got?.message}`).toMatch(
      /^fail: .*none where the client is registered for client_secret_basic/,
    );
  });
});

describe('a client that stops before it reads what it must refuse', () => {
  it.each([
    ['auth/resource-mismatch', 'resource-match', 'the resource metadata'],
    ['auth/metadata-issuer-mismatch', 'metadata-issuer', "the authorization server's metadata"],
    ['auth/pkce-not-advertised', 'pkce-required', "the authorization server's metadata"],
  ])('does not pass %s by doing nothing: %s skips', async (name, id, what) => {
    // Gives up at the first 401: it never fetched the metadata it had to refuse.
    const record = await recordOf(name, { 'no-authorize': true });
    const got = judge(CLIENT_AUTH_CHECKS, [record]).find((r) => r.id === `client-side/auth/${id}`);
    expect(got?.status).toBe('skip');
    expect(got?.message).toContain(`stopped before it fetched ${what}`);
  });
});

describe('a workload refused a scope (the official auth-test-wif-scope-rejected)', () => {
  it('stops at the invalid_scope refusal and passes auth/wif-jwt-bearer', async () => {
    const record = await recordOf('auth/wif-jwt-bearer', { 'wif-refused-scope': true });
    const refused = record.auth?.rig.find((e) => e.url.endsWith('/token') && e.status >= 400)[0];
    expect(refused?.reply).toMatchObject({ error: 'invalid_scope' });
    const results = judge([...CLIENT_CHECKS, ...CLIENT_AUTH_CHECKS], [record]);
    expect(results.filter((r) => r.status === 'fail' || r.status === 'warn').map((r) => r.id)).toEqual([]);
    const status = (id: string) => results.find((r) => r.id === `client-side/auth/${id}`)?.status;
    expect([status('jwt-bearer-refusal'), status('authorizes')]).toEqual(['pass', 'skip']);
  });
});

describe('a client of the initialize wire told 2026-07-28', () => {
  const at = async (name: string, faults: Record<string, boolean>) => {
    const record = await recordOf(name, faults, '2026-07-28');
    return judge([...CLIENT_CHECKS, ...CLIENT_AUTH_CHECKS], [record]);
  };

  it('is judged on its OAuth exchanges; the checks of MCP frames skip, saying why', async () => {
    const results = await at('auth/iss-wrong-issuer', { 'initialize-always': true, 'ignore-iss': true });
    const byId = (id: string) => results.find((r) => r.id === id);
    expect(byId('client-side/auth/iss-parameter')?.status).toBe('fail');
    expect(byId('client-side/frames/json')?.message).toMatch(/does not speak 2026-07-28 \(it sent initialize\)/);
    expect(results.filter((r) => r.status === 'fail' || r.status === 'warn').map((r) => r.id)).toEqual([
      'client-side/auth/iss-parameter',
    ]);
  });

  it('passes the authorization checks when it does what they ask', async () => {
    const results = await at('auth/metadata-default', { 'initialize-always': true });
    expect(results.filter((r) => r.status === 'fail' || r.status === 'warn').map((r) => r.id)).toEqual([]);
    expect(results.find((r) => r.id === 'client-side/auth/application-type')?.status).toBe('pass');
  });
});

describe('faulty OAuth clients', () => {
  it.each(ROWS.map((r) => [r.fault, r] as const))('%s trips its check and no other', async (_, row) => {
    const record = await recordOf(row.scenario, { [row.fault]: true }, row.revision);
    const results = judge([...CLIENT_CHECKS, ...CLIENT_AUTH_CHECKS], [record]);
    const got = results.find((r) => r.id === row.check);
    const others = results.filter((r) => r.id !== row.check && r.status !== 'pass' && r.status !== 'skip');
    expect(`${got?.status}: ${got?.message}`, row.why).toMatch(
      row.expect === 'note' ? /^pass: .*: note / : new RegExp(`^${row.expect}: `),
    );
    expect(others.map((r) => `${r.id}: ${r.status}: ${r.message}`)).toEqual([]);
    // Every finding names an exchange: a method and a URL, with secrets hidden.
    if (!/no (token|authorization|MCP|HTTP)|stopped|never|expected|discarded/.test(got?.message ?? ''))
      expect(got?.message).toMatch(/#\d+ (GET|POST) http/);
    const secrets = record.auth?.rig.log.secretList ?? [];
    const text = JSON.stringify(got);
    for (const s of secrets) expect(text).not.toContain(s);
  });
});

describe('DPoP proofs (RFC 9449 §4.3)', () => {
  const url = 'http://127.0.0.1:1/mcp';
  /** A proof signed by a fresh key of `type` with `alg`, claims for POST `url` unless `over` says otherwise. */
  function proof(type: 'ec' | 'ed25519' | 'rsa', alg: string, over: Record<string, unknown> = {}) {
    const pair =
      type === 'ec'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : type === 'rsa'
          ? generateKeyPairSync('rsa', { modulusLength: 2048 })
          : generateKeyPairSync('ed25519');
    const jwk = pair.publicKey.export({ format: 'jwk' }) as Record<string, unknown>;
    const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const claims = { jti: 'j1', htm: 'POST', htu: url, iat: Math.floor(Date.now() / 1000), ...over };
    const input = `${part({ typ: 'dpop+jwt', alg, jwk })}.${part(claims)}`;
    const digest = alg === 'EdDSA' ? null : 'sha256';
    const key = type === 'ec' ? { key: pair.privateKey, dsaEncoding: 'ieee-p1363' as const } : pair.privateKey;
    return { text: `${input}.${sign(digest, Buffer.from(input), key).toString('base64url')}`, jwk };
  }

  it('verifies ES256, RS256 and EdDSA proofs and binds them to their key', () => {
    for (const [type, alg] of [
      ['ec', 'ES256'],
      ['rsa', 'RS256'],
      ['ed25519', 'EdDSA'],
    ] as const) {
      const p = proof(type, alg);
      const read = readProof(p.text, { method: 'POST', url });
      expect(read?.problems, alg).toEqual([]);
      expect(read?.jkt, alg).toBe(thumbprint(p.jwk));
    }
  });

  it('names what is wrong: method, URL, stale iat, ath, a signature by another key', () => {
    const p = proof('ec', 'ES256', { htm: 'GET', htu: 'http://127.0.0.1:2/mcp', iat: 1 });
    const read = readProof(p.text, { method: 'POST', url, token: 'at-x' });
    expect(read?.problems.join('; ')).toMatch(/htm .*; htu .*; iat .*; no ath/);
    const good = proof('ec', 'ES256', { ath: accessTokenHash('at-x') });
    expect(readProof(good.text, { method: 'POST', url, token: 'at-x' })?.problems).toEqual([]);
    const [h, c] = good.text.split('.');
    const forged = `${h}.${c}.${proof('ec', 'ES256').text.split('.')[2]}`;
    expect(readProof(forged, { method: 'POST', url })?.problems).toContain(
      'the signature does not verify with the jwk of the header',
    );
  });
});
