// Client authorization: the reference OAuth client passes every scenario, each faulty client (one fault each) fails
// the check that owns its fault, and no secret the run saw appears in what it reports.
import { describe, expect, it } from 'vitest';
import { connect } from '../examples/reference-client/oauth.mjs';
import { PRE_REGISTERED, SCENARIOS, scenarioNamed } from '../src/auth/scenarios.js';
import { CLIENT_AUTH_CHECKS } from '../src/checks/client-side/auth.js';
import { type ScenarioRun, runScenario } from '../src/run/client-auth.js';

type Faults = Record<string, boolean>;
const reference =
  (faults: Faults = {}) =>
  (url: string, env: Record<string, string>) =>
    connect(url, env, faults) as Promise<void>;

/** One row per check: the fault, the scenario that shows it, the check that owns it and its verdict there. */
const FAULT_ROWS: [fault: string, scenario: string, check: string, status: 'fail' | 'warn'][] = [
  ['no-authorize', 'auth/metadata-default', 'client-side/auth/authorizes', 'fail'],
  ['root-prm-first', 'auth/metadata-default', 'client-side/auth/prm-discovery', 'fail'],
  ['openid-first', 'auth/metadata-default', 'client-side/auth/as-discovery', 'fail'],
  ['trust-resource', 'auth/resource-mismatch', 'client-side/auth/resource-match', 'fail'],
  ['trust-issuer', 'auth/metadata-issuer-mismatch', 'client-side/auth/metadata-issuer', 'fail'],
  ['ignore-iss', 'auth/iss-wrong-issuer', 'client-side/auth/iss-parameter', 'fail'],
  ['no-pkce', 'auth/metadata-default', 'client-side/auth/pkce', 'fail'],
  ['ignore-pkce-support', 'auth/pkce-not-advertised', 'client-side/auth/pkce-required', 'fail'],
  ['no-state-check', 'auth/state-mismatch', 'client-side/auth/state', 'warn'],
  ['no-resource', 'auth/metadata-default', 'client-side/auth/resource-parameter', 'fail'],
  ['http-redirect', 'auth/basic-dcr', 'client-side/auth/redirect-uri', 'fail'],
  ['ignore-challenge-scope', 'auth/scope-from-www-authenticate', 'client-side/auth/scope-challenge', 'fail'],
  ['no-scope-fallback', 'auth/scope-from-scopes-supported', 'client-side/auth/scope-fallback', 'warn'],
  ['no-step-up', 'auth/scope-step-up', 'client-side/auth/step-up', 'warn'],
  ['loop-on-403', 'auth/scope-retry-limit', 'client-side/auth/retry-limit', 'warn'],
  ['dcr-always', 'auth/basic-cimd', 'client-side/auth/registration', 'warn'],
  ['cimd-wrong-id', 'auth/basic-cimd', 'client-side/auth/cimd-document', 'fail'],
  ['wrong-auth-method', 'auth/token-endpoint-auth-basic', 'client-side/auth/token-endpoint-auth', 'fail'],
  ['token-in-query', 'auth/metadata-default', 'client-side/auth/token-in-header', 'fail'],
  ['token-everywhere', 'auth/scope-step-up', 'client-side/auth/token-audience', 'fail'],
  ['no-refresh', 'auth/offline-access-scope', 'client-side/auth/refresh', 'warn'],
];

/** Tokens, codes and secrets the servers issue look like this; none may leave the run. */
const ISSUED = /\b(at|rt|code|secret)-[A-Za-z0-9_-]{24}\b/;

function statuses(run: ScenarioRun): Record<string, string> {
  return Object.fromEntries(run.results.map((r) => [r.id, `${r.status}: ${r.message}`]));
}

function noSecrets(run: ScenarioRun) {
  const text = JSON.stringify(run);
  expect(text).not.toMatch(ISSUED);
  expect(text).not.toContain(PRE_REGISTERED.client_secret);
}

describe('client authorization scenarios', () => {
  it.each(SCENARIOS.map((s) => [s.name]))('the reference client passes %s', async (name) => {
    const sc = scenarioNamed(name);
    if (!sc) throw new Error(name);
    const run = await runScenario(sc, reference(), 15_000);
    const bad = run.results.filter((r) => r.status !== 'pass' && r.status !== 'skip');
    expect(
      bad.map((r) => `${r.id}: ${r.status}: ${r.message}`),
      run.exchanges.join('\n'),
    ).toEqual([]);
    expect(run.results.filter((r) => r.status === 'pass').length).toBeGreaterThan(0);
    noSecrets(run);
  });

  it('has a fault row for every check', () => {
    const owned = new Set(FAULT_ROWS.map((r) => r[2]));
    expect(
      CLIENT_AUTH_CHECKS.map((c) => c.id).filter(
        (id) => !owned.has(id) && id !== 'client-side/auth/client-credentials',
      ),
    ).toEqual([]);
  });

  it.each(FAULT_ROWS)('a client with fault %s fails on %s: %s', async (fault, name, id, status) => {
    const sc = scenarioNamed(name);
    if (!sc) throw new Error(name);
    const run = await runScenario(sc, reference({ [fault]: true }), 15_000);
    const got = run.results.find((r) => r.id === id);
    expect(`${got?.status}: ${got?.message}`, JSON.stringify(statuses(run), null, 1)).toMatch(
      new RegExp(`^${status}: `),
    );
    // Every finding names an exchange: a method and a URL, with secrets hidden.
    if (!/no (token|authorization|MCP|HTTP)|stopped|never|expected|discarded/.test(got?.message ?? ''))
      expect(got?.message).toMatch(/#\d+ (GET|POST) http/);
    noSecrets(run);
  });
});

describe('authorization scenarios in a client run', () => {
  it('lands in the same report, one result per check, a failure naming its scenario and exchange', async () => {
    const { runClientConformance } = await import('../src/run/client/run.js');
    const report = await runClientConformance({
      client: (c) =>
        connect(
          c.url,
          {
            MCP_CONFORMANCE_SCENARIO: c.scenario,
            MCP_CONFORMANCE_PROTOCOL_VERSION: c.protocolVersion,
            MCP_CONFORMANCE_CONTEXT: JSON.stringify(c.context),
          },
          { 'ignore-pkce-support': true },
        ) as Promise<void>,
      scenarios: ['auth/pre-registration', 'auth/pkce-not-advertised'],
    });
    const byId = new Map(report.checks.map((c) => [c.id, c]));
    expect(byId.get('client-side/auth/authorizes')?.status).toBe('pass');
    expect(byId.get('client-side/auth/pkce-required')?.message).toMatch(
      /^auth\/pkce-not-advertised: the client went on: #\d+ GET http:\/\/127\.0\.0\.1:\d+\/authorize\?/,
    );
    expect(byId.get('client-side/auth/pkce-required')?.status).toBe('fail');
    expect(report.checks.every((c) => c.area === 'client-side/auth')).toBe(true);
    const text = JSON.stringify(report);
    expect(text).not.toMatch(ISSUED);
    expect(text).not.toContain(PRE_REGISTERED.client_secret);
  });
});
