// The client as an OAuth client: each check judges the HTTP exchanges of one authorization scenario (what the client
// asked the protected resource and the authorization server, in order), read from the scenario's record like every
// other client-side check. Every finding names its exchange.
import { createHash } from 'node:crypto';
import { SCENARIOS, type AuthScenario } from '../../auth/scenarios.js';
import type { HttpExchange } from '../../auth/exchanges.js';
import { isLoopback } from '../../auth/challenge.js';
import { JWT_BEARER, JWT_GRANT, assertionProblems, readAssertion } from '../../auth/jwt-assertion.js';
import { ID_JAG_TYPE, ID_TOKEN_TYPE, TOKEN_EXCHANGE, workloadJwtProblems } from '../../auth/oauth-rig.js';
import type { TranscriptEntry } from '../../schema/generated/report.js';
import { isObject } from '../../json.js';
import { type Outcome, fail, pass, skip, warn } from '../kit/check.js';
import type { AuthRun, ClientCheckDef } from '../kit/client-check.js';
import { requirement } from '../kit/requirement.js';

const AUTHZ = 'basic/authorization';
const RFC = (n: number, anchor: string) => `https://datatracker.ietf.org/doc/html/rfc${n}#${anchor}`;

// Views of the log.
const path = (e: HttpExchange) => new URL(e.url).pathname;
const query = (e: HttpExchange) => new URL(e.url).searchParams;
const form = (e: HttpExchange): Record<string, unknown> => (isObject(e.body) ? e.body : {});
const authorizeRequests = (r: AuthRun) => r.rig.find((e) => e.method === 'GET' && path(e).endsWith('/authorize'));
const tokenRequests = (r: AuthRun) => r.rig.find((e) => e.method === 'POST' && path(e).endsWith('/token'));
const mcpRequests = (r: AuthRun) => r.rig.find((e) => e.role === 'resource' && path(e) === '/mcp');
const codeRedemptions = (r: AuthRun) => tokenRequests(r).filter((e) => form(e).grant_type === 'authorization_code');
/** The code an authorization request's redirect carried, if it was answered with one. */
const codeOf = (e: HttpExchange) => {
  try {
    return new URL(e.answer.location ?? '').searchParams.get('code') ?? undefined;
  } catch {
    return undefined;
  }
};
const bearerOf = (e: HttpExchange) => /^(?:Bearer|DPoP)\s+(\S+)$/i.exec(String(e.headers.authorization ?? ''))?.[1];
/** A token request the authorization server answered with a DPoP nonce challenge (RFC 9449 §8): not a refusal. */
const nonceChallenged = (e: HttpExchange) => isObject(e.reply) && e.reply.error === 'use_dpop_nonce';
/** The token a request carried, in the header or (wrongly: client-side/auth/token-in-header) the query string. */
const tokenOf = (e: HttpExchange) => bearerOf(e) ?? query(e).get('access_token') ?? undefined;
const scopesOf = (v: string | null | undefined) => (v ?? '').split(' ').filter(Boolean);
const cite = (r: AuthRun, e: HttpExchange) => r.rig.log.describe(e);
/** The first token request of a jwt-bearer grant the authorization server refused (the identity provider's aside). */
const grantRefused = (r: AuthRun) =>
  r.scenario.grant === 'jwt-bearer'
    ? tokenRequests(r).find((e) => e.role !== 'identity' && e.status >= 400)
    : undefined;
/**
 * What a workload did up to its first refusal: what came after is client-side/auth/jwt-bearer-refusal's (a retry, a
 * fallback to another grant), one finding.
 */
const untilRefused = (r: AuthRun, list: HttpExchange[]) => {
  const refused = r.scenario.enterprise ? undefined : grantRefused(r);
  return refused ? list.filter((e) => e.seq <= refused.seq) : list;
};
/**
 * The MCP requests an issued access token got past the protected resource with: answered 200/202, or passed on to
 * the MCP endpoint (no challenge), whose answer is the MCP checks' to judge (a client of the initialize wire at
 * 2026-07-28 is refused there, not here).
 */
const authorizedMcp = (r: AuthRun) =>
  mcpRequests(r).filter(
    (e) =>
      (e.status < 300 || e.answer['www-authenticate'] === undefined) &&
      r.rig.tokens.get(tokenOf(e) ?? '')?.kind === 'access',
  );

/** The client a request names: by Basic credentials, a client_id parameter, or a client assertion's iss. */
function clientIdOf(e: HttpExchange): string | undefined {
  const basic = /^Basic\s+(\S+)/i.exec(String(e.headers.authorization ?? ''))?.[1];
  if (basic) return decodeURIComponent(Buffer.from(basic, 'base64').toString('utf8').split(':')[0] ?? '');
  const id = query(e).get('client_id') ?? form(e).client_id;
  if (typeof id === 'string') return id;
  const assertion = form(e).client_assertion;
  return typeof assertion === 'string' ? (readAssertion(assertion)?.claims.iss as string | undefined) : undefined;
}

const prmFetches = (r: AuthRun) =>
  r.rig.find(
    (e) =>
      e.role === 'resource' &&
      e.method === 'GET' &&
      (path(e) === r.scenario.prm || path(e).startsWith('/.well-known/oauth-protected-resource')),
  );
const asMetadataFetches = (r: AuthRun) =>
  r.rig.find(
    (e) => e.method === 'GET' && /\/\.well-known\/(oauth-authorization-server|openid-configuration)/.test(path(e)),
  );
const registrations = (r: AuthRun) => r.rig.find((e) => e.method === 'POST' && path(e).endsWith('/register'));
const onLoopback = (u: unknown) => {
  try {
    return isLoopback(new URL(String(u)));
  } catch {
    return false;
  }
};

/** Why there is nothing to judge when the client never asked for authorization. */
const NO_AUTHORIZATION = 'the client made no authorization request';

/**
 * Why a scenario that hands the client credentials (MCP_CONFORMANCE_CONTEXT) has nothing to judge: the client never
 * used them, and has no other way to authorize there (a client without the official contract).
 */
function ignoredContext(r: AuthRun): string | undefined {
  const sc = r.scenario;
  if (!sc.preRegistered && sc.grant === undefined) return undefined;
  const ids = [...r.rig.clients.values()].filter((c) => c.via === 'pre-registered').map((c) => c.client_id);
  // A jwt-bearer client may name no client at all: the JWT the context gave is what it uses.
  const jwts = Object.values(r.rig.context);
  const used = [...authorizeRequests(r), ...tokenRequests(r)].some(
    (e) => ids.includes(String(clientIdOf(e))) || Object.values(form(e)).some((v) => jwts.includes(String(v))),
  );
  return used
    ? undefined
    : 'the client never used the credentials MCP_CONFORMANCE_CONTEXT gives (it does not take the official contract, or has no way to use them); nothing to judge';
}

/**
 * For the scenarios where a conformant client stops: the first exchange that shows it went on. A client that stopped
 * before it read what it had to refuse (`read`: the metadata it had to judge) did not refuse it: nothing to judge.
 */
function wentOn(
  r: AuthRun,
  what: string,
  after: HttpExchange[],
  verdict = fail,
  read?: { what: string; seen: HttpExchange[] },
): Outcome {
  const first = after[0];
  if (!first && read && read.seen.length === 0)
    return skip(`the client stopped before it fetched ${read.what}: it never had it to refuse`);
  if (!first) return pass(`the client stopped: no ${what}`);
  return verdict(`the client went on: ${cite(r, first)}`, {
    expected: `no ${what}`,
    actual: after.slice(0, 3).map((e) => cite(r, e)),
  });
}

function check(
  id: string,
  level: 'MUST' | 'SHOULD' | 'MAY',
  link: string,
  text: string,
  applies: (sc: AuthScenario) => boolean,
  judge: (r: AuthRun) => Outcome,
): ClientCheckDef {
  return {
    id: `client-side/auth/${id}`,
    title: text,
    requirement: requirement(`client-side.auth.${id}`, level, link, text),
    scenarios: SCENARIOS.filter(applies).map((sc) => sc.name),
    readsExchanges: true,
    judge: (record) =>
      record.auth ? judged(record.auth, judge) : skip(`${record.scenario.name}: not an authorization scenario`),
  };
}

/**
 * One scenario's verdict, named by the scenario; a draft or extension failure is a warning naming its tier unless the
 * scenario was named; a finding carries the scenario's exchanges (secrets as ***) as its transcript.
 */
function judged(run: AuthRun, judge: (r: AuthRun) => Outcome): Outcome {
  const o = judge(run);
  const sc = run.scenario;
  const demoted = !run.counted && sc.tier !== 'core' && o.status === 'fail';
  const message = `${sc.name}: ${demoted ? `[${sc.tier} scenario] ` : ''}${o.message}`;
  if (o.status === 'pass' || o.status === 'skip') return { ...o, message };
  return { ...o, status: demoted ? 'warn' : o.status, message, transcript: exchangesAsTranscript(run) };
}

/** The scenario's exchanges as a transcript: one line each, secrets as ***. */
function exchangesAsTranscript(run: AuthRun): TranscriptEntry[] {
  return run.rig.log.exchanges.map((e, i) => {
    const text = run.rig.log.describe(e).replace(/^#\d+ /, '');
    return { seq: i + 1, dir: 'send', t: e.t, bytes: Buffer.byteLength(text), text };
  });
}

const usesCode = (sc: AuthScenario) => sc.grant === undefined;

/** An earlier DPoP proof of the scenario with the same jti as `e`'s (each proof is used once: RFC 9449 §4.3). */
const replayed = (r: AuthRun, e: HttpExchange) =>
  r.rig.find((x) => x.seq < e.seq && x.dpop !== undefined && x.dpop.claims.jti === e.dpop?.claims.jti)[0];
/** The MCP requests that presented a DPoP-bound token, with the key it is bound to. */
const boundRequests = (r: AuthRun) =>
  mcpRequests(r).flatMap((e) => {
    const jkt = r.rig.tokens.get(tokenOf(e) ?? '')?.jkt;
    return jkt ? [{ e, jkt }] : [];
  });
const NO_BOUND_TOKEN = 'no DPoP-bound token was presented (see client-side/auth/dpop-token-request)';
const isRefresh = (e: HttpExchange) => form(e).grant_type === 'refresh_token';
/** The failure a request's proof earns, if any: its own problems, `more`, and a jti used before. */
function proofFailure(r: AuthRun, e: HttpExchange, more: string[] = []): Outcome | undefined {
  if (!e.dpop) return undefined;
  const reused = replayed(r, e);
  const problems = [...e.dpop.problems, ...more, ...(reused ? [`jti already used in #${reused.seq}`] : [])];
  if (problems.length === 0) return undefined;
  return fail(`${problems.join('; ')}: ${cite(r, e)}`, { actual: { header: e.dpop.header, claims: e.dpop.claims } });
}

export const CLIENT_AUTH_CHECKS: ClientCheckDef[] = [
  check(
    'authorizes',
    'MUST',
    `${AUTHZ}#protected-resource-metadata-discovery-requirements`,
    'After a 401 the client gets a token and its MCP requests succeed with it',
    (sc) => sc.outcome === 'connect',
    (r) => {
      const ok = authorizedMcp(r)[0];
      if (ok) return pass(`authorized MCP request: ${cite(r, ok)}`);
      const given = ignoredContext(r);
      if (given) return skip(given);
      // A jwt-bearer grant refused (a bad JWT, a scope the workload is refused) ends the flow: a conformant client
      // surfaces the error (client-side/auth/jwt-bearer-refusal); why it was refused is the grant's checks' finding.
      const refused = grantRefused(r);
      if (refused)
        return skip(
          `the authorization server refused the grant (see client-side/auth/jwt-bearer-grant, workload-jwt, jwt-bearer-refusal): ${cite(r, refused)}`,
        );
      // A code redeemed by another DPoP key than its dpop_jkt names is dpop-jkt-match's finding.
      const jktRefused =
        r.scenario.dpop !== undefined &&
        tokenRequests(r).find((e) => isObject(e.reply) && e.reply.error === 'invalid_grant');
      if (jktRefused)
        return skip(
          `the authorization server refused the code (see client-side/auth/dpop-jkt-match): ${cite(r, jktRefused)}`,
        );
      const last = r.rig.log.exchanges.slice(-3).map((e) => cite(r, e));
      return fail(
        last.length === 0 ? 'the client sent no HTTP request' : 'no MCP request with an issued token was answered',
        { expected: 'an MCP request carrying a token the authorization server issued', actual: last },
      );
    },
  ),
  check(
    'prm-discovery',
    'MUST',
    `${AUTHZ}#protected-resource-metadata-discovery-requirements`,
    'Resource metadata from the challenge URL when given, else the path-suffixed then the root well-known URI',
    (sc) => sc.prm !== undefined && !sc.resourceMismatch,
    (r) => {
      const sc = r.scenario;
      const isPrm = (e: HttpExchange) =>
        e.role === 'resource' &&
        e.method === 'GET' &&
        (path(e) === sc.prm || path(e).startsWith('/.well-known/oauth-protected-resource'));
      const fetched = r.rig.find(isPrm);
      const asked = r.rig.find((e) => e.role === 'authorization').length + authorizeRequests(r).length;
      if (fetched.length === 0)
        return asked === 0
          ? skip('the client fetched no metadata at all (see client-side/auth/authorizes)')
          : fail('the client went to the authorization server without the resource metadata');
      const urls = fetched.map((e) => e.url);
      const suffixed = `${r.rig.resourceOrigin}/.well-known/oauth-protected-resource/mcp`;
      const root = `${r.rig.resourceOrigin}/.well-known/oauth-protected-resource`;
      const expected = sc.prmInChallenge
        ? [r.rig.prmUrl]
        : sc.prm === '/.well-known/oauth-protected-resource'
          ? [suffixed, root]
          : [suffixed];
      const got = urls.slice(0, expected.length);
      if (JSON.stringify(got) === JSON.stringify(expected)) return pass(`fetched ${expected.join(' then ')}`);
      return fail(`resource metadata fetched in the wrong order: ${cite(r, fetched[0] as HttpExchange)}`, {
        expected,
        actual: fetched.slice(0, 4).map((e) => cite(r, e)),
      });
    },
  ),
  check(
    'as-discovery',
    'MUST',
    `${AUTHZ}#authorization-server-metadata-discovery`,
    "The authorization server's metadata from the RFC 8414 and OpenID locations, in the order the revision gives",
    (sc) => sc.asMetadata !== 'none' && !sc.resourceMismatch,
    (r) => {
      const sc = r.scenario;
      // The first round of discovery is judged: with a migration, at the first authorization server (a client that
      // never goes to the second one is as-migration's to judge).
      const o = r.rig.migration?.from ?? r.rig.asOrigin;
      const servedUrl = r.rig.metadataUrlAt(o);
      const p = sc.issuerPath;
      const order = p
        ? [
            `${o}/.well-known/oauth-authorization-server${p}`,
            `${o}/.well-known/openid-configuration${p}`,
            `${o}${p}/.well-known/openid-configuration`,
          ]
        : [`${o}/.well-known/oauth-authorization-server`, `${o}/.well-known/openid-configuration`];
      const all = r.rig.find(
        (e) =>
          e.method === 'GET' &&
          e.url.startsWith(o) &&
          e.url.includes('/.well-known/') &&
          !e.url.includes('oauth-protected-resource'),
      );
      // The first round of discovery: up to the first location that answered (a client may rediscover later).
      const found = all.findIndex((e) => e.status === 200);
      const tried = found < 0 ? all : all.slice(0, found + 1);
      if (tried.length === 0)
        return authorizeRequests(r).length === 0
          ? skip(NO_AUTHORIZATION)
          : fail('the client authorized without fetching the metadata');
      // The revision lists locations and their order; a probe of another URL on the way is not against it.
      const listed = tried.filter((e) => order.includes(e.url));
      const idx = listed.map((e) => order.indexOf(e.url));
      const served = order.indexOf(servedUrl ?? '');
      const expected = order.slice(0, served + 1);
      if (JSON.stringify(listed.map((e) => e.url)) === JSON.stringify(expected))
        return pass(`metadata found at ${servedUrl}, the locations before it tried in order`);
      return fail(
        found < 0
          ? `never fetched ${servedUrl}`
          : `metadata locations tried out of order: ${cite(r, listed[idx.findIndex((v, i) => v !== i)] ?? (tried[0] as HttpExchange))}`,
        { expected, actual: tried.slice(0, 5).map((e) => cite(r, e)) },
      );
    },
  ),
  check(
    'resource-match',
    'MUST',
    RFC(9728, 'section-3.3'),
    "Resource metadata whose resource is not the server's URL is not used",
    (sc) => sc.resourceMismatch === true,
    (r) =>
      wentOn(
        r,
        'registration, authorization or token request after the mismatched metadata',
        r.rig.find((e) => /\/(register|authorize|token)$/.test(path(e))),
        fail,
        { what: 'the resource metadata', seen: prmFetches(r) },
      ),
  ),
  check(
    'metadata-issuer',
    'MUST',
    RFC(8414, 'section-3.3'),
    'Authorization server metadata whose issuer differs from the issuer it was fetched for is not used',
    (sc) => sc.issuerMismatch === true,
    (r) =>
      wentOn(
        r,
        'authorization request',
        [...authorizeRequests(r), ...r.rig.find((e) => path(e).endsWith('/register'))],
        fail,
        { what: "the authorization server's metadata", seen: asMetadataFetches(r) },
      ),
  ),
  check(
    'iss-parameter',
    'MUST',
    'https://datatracker.ietf.org/doc/html/rfc9207#section-2.4',
    'An authorization response with a wrong, unexpected or missing (when advertised) iss is rejected; a right one is used',
    (sc) => sc.iss !== undefined,
    (r) => {
      if (authorizeRequests(r).length === 0) return skip(NO_AUTHORIZATION);
      if (r.scenario.outcome === 'refuse') return wentOn(r, 'token request with the code', codeRedemptions(r));
      const redeemed = codeRedemptions(r)[0];
      return redeemed
        ? pass(`code redeemed: ${cite(r, redeemed)}`)
        : fail('the client discarded an authorization response whose iss was right (or absent and not advertised)');
    },
  ),
  check(
    'pkce',
    'MUST',
    `${AUTHZ}#authorization-code-protection`,
    'Every authorization request carries an S256 code challenge, and the token request its verifier',
    usesCode,
    (r) => {
      const reqs = authorizeRequests(r);
      if (reqs.length === 0) return skip(NO_AUTHORIZATION);
      const bad = reqs.find((e) => !query(e).get('code_challenge') || query(e).get('code_challenge_method') !== 'S256');
      if (bad)
        return fail(`no S256 code challenge: ${cite(r, bad)}`, {
          expected: 'code_challenge_method=S256',
          actual: cite(r, bad),
        });
      // The verifier is held to the challenge of the request its code came from; a refusal for another reason (a
      // dpop_jkt mismatch) is not this check's.
      const noVerifier = codeRedemptions(r).find((e) => {
        const verifier = form(e).code_verifier;
        if (typeof verifier !== 'string') return true;
        const asked = reqs.find((a) => codeOf(a) === form(e).code);
        return asked
          ? createHash('sha256').update(verifier).digest('base64url') !== query(asked).get('code_challenge')
          : e.status >= 400 && !nonceChallenged(e);
      });
      if (noVerifier) return fail(`token request without the matching code_verifier: ${cite(r, noVerifier)}`);
      return pass(`${reqs.length} authorization request(s) with S256`);
    },
  ),
  check(
    'pkce-required',
    'MUST',
    `${AUTHZ}#authorization-code-protection`,
    'Without code_challenge_methods_supported in the metadata the client refuses to proceed',
    (sc) => sc.noPkce === true,
    (r) =>
      wentOn(r, 'authorization request', authorizeRequests(r), fail, {
        what: "the authorization server's metadata",
        seen: asMetadataFetches(r),
      }),
  ),
  check(
    'state',
    'SHOULD',
    `${AUTHZ}#open-redirection`,
    'Authorization requests carry a state, and a response with another state is discarded',
    usesCode,
    (r) => {
      const reqs = authorizeRequests(r);
      if (reqs.length === 0) return skip(NO_AUTHORIZATION);
      const bad = reqs.find((e) => !query(e).get('state'));
      if (bad) return warn(`no state: ${cite(r, bad)}`);
      if (r.scenario.wrongState)
        return wentOn(r, 'token request with a code whose state did not match', codeRedemptions(r), warn);
      return pass('state sent');
    },
  ),
  check(
    'resource-parameter',
    'MUST',
    `${AUTHZ}#resource-parameter-implementation`,
    "Authorization and token requests carry resource naming the MCP server's canonical URI",
    // A jwt-bearer grant's resource is the grant's own (the ID-JAG's: client-side/auth/id-jag-exchange).
    (sc) => !sc.revisions.includes('2025-03-26') && !sc.resourceMismatch && sc.grant !== 'jwt-bearer',
    (r) => {
      const reqs = [
        ...authorizeRequests(r).map((e) => ({ e, v: query(e).get('resource') })),
        ...tokenRequests(r).map((e) => ({ e, v: form(e).resource as string | undefined })),
      ];
      if (reqs.length === 0) return skip(NO_AUTHORIZATION);
      // The server's URL, or the resource its metadata names (the origin, where the metadata is at the root).
      const named = [...new Set([r.rig.prmResource, r.rig.serverUrl])];
      const bad = reqs.find(({ v }) => typeof v !== 'string' || !named.includes(v.replace(/\/$/, '')));
      if (bad)
        return fail(`resource ${bad.v ?? 'missing'}: ${cite(r, bad.e)}`, {
          expected: named.join(' or '),
          actual: bad.v ?? null,
        });
      // "implementations SHOULD consistently use the form without the trailing slash" (Canonical Server URI).
      const slashed = reqs.find(({ v }) => typeof v === 'string' && !named.includes(v));
      if (slashed)
        return warn(
          `resource ${slashed.v} has a trailing slash the server's identifier has not: ${cite(r, slashed.e)}`,
          {
            expected: named.join(' or '),
            actual: slashed.v ?? null,
          },
        );
      return pass(`resource=${reqs[0]?.v} in ${reqs.length} request(s)`);
    },
  ),
  check(
    'redirect-uri',
    'MUST',
    `${AUTHZ}#communication-security`,
    'Redirect URIs are loopback or https',
    usesCode,
    (r) => {
      const reqs = authorizeRequests(r);
      if (reqs.length === 0) return skip(NO_AUTHORIZATION);
      const bad = reqs.find((e) => {
        try {
          const u = new URL(query(e).get('redirect_uri') ?? '');
          return !(u.protocol === 'https:' || (u.protocol === 'http:' && isLoopback(u)));
        } catch {
          return true;
        }
      });
      return bad
        ? fail(`redirect_uri neither loopback nor https: ${cite(r, bad)}`)
        : pass('redirect URIs on loopback or https');
    },
  ),
  {
    ...check(
      'application-type',
      'MUST',
      `${AUTHZ}#dynamic-client-registration`,
      'MCP clients MUST specify an appropriate `application_type` during Dynamic Client Registration',
      (sc) => sc.dcr,
      (r) => {
        const regs = registrations(r);
        if (regs.length === 0) return skip('the client made no dynamic registration');
        for (const e of regs) {
          const type = form(e).application_type;
          if (type !== 'native' && type !== 'web')
            return fail(
              `application_type ${type === undefined ? 'missing' : JSON.stringify(type)} in the registration: ${cite(r, e)}`,
              { expected: '"native" or "web"', actual: type === undefined ? null : JSON.stringify(type) },
            );
          // "Native applications … SHOULD use native": a client whose redirects are all on loopback is one.
          const uris = Array.isArray(form(e).redirect_uris) ? (form(e).redirect_uris as unknown[]) : [];
          if (type === 'web' && uris.length > 0 && uris.every((u) => onLoopback(u)))
            return warn(`application_type "web" with loopback redirect URIs only (a native client): ${cite(r, e)}`, {
              expected: '"native"',
              actual: '"web"',
            });
        }
        return pass(`application_type ${regs.map((e) => JSON.stringify(form(e).application_type)).join(', ')}`);
      },
    ),
    // SEP-837 is a rule of 2026-07-28: earlier revisions say nothing of application_type.
    revisions: ['2026-07-28'],
  },
  check(
    'scope-challenge',
    'MUST',
    `${AUTHZ}#protected-resource-metadata-discovery-requirements`,
    "The scopes of the 401's challenge are asked for",
    (sc) => sc.challengeScope !== undefined && usesCode(sc),
    (r) => {
      const first = authorizeRequests(r)[0];
      if (!first) return skip(NO_AUTHORIZATION);
      const asked = scopesOf(query(first).get('scope'));
      const missing = scopesOf(r.scenario.challengeScope).filter((s) => !asked.includes(s));
      return missing.length
        ? fail(`the challenge's scope ${missing.join(' ')} not asked for: ${cite(r, first)}`, {
            expected: r.scenario.challengeScope,
            actual: asked.join(' '),
          })
        : pass(`asked for ${asked.join(' ')}`);
    },
  ),
  check(
    'scope-fallback',
    'SHOULD',
    `${AUTHZ}#scope-selection-strategy`,
    'Without a challenge scope: every scope of scopes_supported, or no scope parameter when there is none',
    (sc) => sc.challengeScope === undefined && sc.offlineAccess === undefined && usesCode(sc) && sc.prm !== undefined,
    (r) => {
      const first = authorizeRequests(r)[0];
      if (!first) return skip(NO_AUTHORIZATION);
      const asked = query(first).get('scope');
      const want = r.scenario.scopesSupported;
      if (!want)
        return asked === null
          ? pass('no scope parameter')
          : warn(`scope=${asked} though nothing names a scope: ${cite(r, first)}`);
      const got = scopesOf(asked);
      const missing = want.filter((s) => !got.includes(s));
      return missing.length
        ? warn(`scopes_supported ${missing.join(' ')} not asked for: ${cite(r, first)}`, {
            expected: want.join(' '),
            actual: asked,
          })
        : pass(`asked for ${got.join(' ')}`);
    },
  ),
  check(
    'step-up',
    'SHOULD',
    `${AUTHZ}#step-up-authorization-flow`,
    'After 403 insufficient_scope the client authorizes again asking for the scopes the challenge names',
    (sc) => sc.stepUp !== undefined,
    (r) => {
      const forbidden = r.rig.find((e) => e.role === 'resource' && e.status === 403)[0];
      if (!forbidden) return skip('the client made no call that needs more scope (no tools/call)');
      const needed = scopesOf(/scope="([^"]*)"/.exec(forbidden.answer['www-authenticate'] ?? '')?.[1]);
      const again = authorizeRequests(r).find((e) => e.seq > forbidden.seq);
      if (!again) return warn(`no new authorization after ${cite(r, forbidden)}`);
      const missing = needed.filter((s) => !scopesOf(query(again).get('scope')).includes(s));
      return missing.length
        ? warn(`step-up did not ask for ${missing.join(' ')}: ${cite(r, again)}`)
        : pass(`stepped up: ${cite(r, again)}`);
    },
  ),
  {
    ...check(
      'scope-union',
      'SHOULD',
      'https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#step-up-authorization-flow',
      'The re-authorization after 403 insufficient_scope asks for the scopes asked for before as well as the challenged ones',
      (sc) => sc.stepUp !== undefined,
      (r) => {
        const forbidden = r.rig.find((e) => e.role === 'resource' && e.status === 403)[0];
        if (!forbidden) return skip('the client made no call that needs more scope (no tools/call)');
        const before = scopesOf(r.rig.tokens.get(tokenOf(forbidden) ?? '')?.scope);
        const again = authorizeRequests(r).find((e) => e.seq > forbidden.seq);
        // No re-authorization, or one without the challenged scope, is client-side/auth/step-up's finding.
        if (!again) return skip(`no new authorization after ${cite(r, forbidden)} (see client-side/auth/step-up)`);
        const asked = scopesOf(query(again).get('scope'));
        const dropped = before.filter((s) => !asked.includes(s));
        return dropped.length
          ? warn(
              `the re-authorization dropped ${dropped.join(' ')}, granted before ${cite(r, forbidden)}: ${cite(r, again)}`,
              {
                expected: [...new Set([...before, ...asked])].join(' '),
                actual: asked.join(' '),
              },
            )
          : pass(`asked for ${asked.join(' ')}, the scopes granted before included: ${cite(r, again)}`);
      },
    ),
    // A 2026-07-28 rule (SEP-2350): before it, a client may ask for the challenged scopes alone.
    revisions: ['2026-07-28'],
  },
  check(
    'retry-limit',
    'SHOULD',
    `${AUTHZ}#step-up-authorization-flow`,
    'Repeated 403 insufficient_scope naming the same scope end in at most 3 authorization requests, not a loop',
    (sc) => sc.alwaysForbidden === true,
    (r) => {
      const authorizations = authorizeRequests(r);
      const forbidden = r.rig.find((e) => e.role === 'resource' && e.status === 403);
      if (authorizations.length === 0) return skip(NO_AUTHORIZATION);
      if (forbidden.length === 0) return skip('the client made no request past initialization with its token');
      // As the official scenario counts: every authorization request, the first one too; 4 or more is a loop.
      return authorizations.length > 3
        ? warn(
            `${authorizations.length} authorization requests for a scope that never suffices, the 4th ${cite(r, authorizations[3] as HttpExchange)}${r.rig.looping ? ' (stopped by the suite)' : ''}`,
            { expected: 'at most 3 authorization requests', actual: authorizations.length },
          )
        : pass(
            `${authorizations.length} authorization request(s), ${forbidden.length} 403(s), then the client stopped`,
          );
    },
  ),
  check(
    'registration',
    'SHOULD',
    `${AUTHZ}#client-registration-approaches`,
    'Pre-registered credentials where given, a client ID metadata document where advertised, else dynamic registration',
    (sc) => usesCode(sc) && sc.outcome === 'connect' && sc.asMetadata !== 'none',
    (r) => {
      const first = authorizeRequests(r)[0];
      if (!first) return skip(NO_AUTHORIZATION);
      const id = query(first).get('client_id') ?? '';
      const known = r.rig.clients.get(id);
      const want = r.scenario.preRegistered ? 'pre-registered' : r.scenario.cimd ? 'cimd' : 'dcr';
      return known?.via === want
        ? pass(`registered by ${want}`)
        : warn(`expected ${want}, the client used ${known?.via ?? 'an unknown client_id'}: ${cite(r, first)}`);
    },
  ),
  check(
    'cimd-document',
    'MUST',
    `${AUTHZ}#client-id-metadata-documents`,
    'A client ID metadata document is reachable, names its own URL as client_id and lists the redirect URI used',
    (sc) => sc.cimd,
    (r) => {
      const doc = [...r.rig.clients.values()].find((c) => c.via === 'cimd');
      if (!doc) return skip('the client used no client ID metadata document');
      if (doc.document?.error)
        return doc.document.error.startsWith('not on loopback')
          ? skip(`${doc.client_id}: ${doc.document.error}`)
          : fail(`${doc.client_id}: ${doc.document.error}`);
      const body = isObject(doc.document?.body) ? doc.document.body : undefined;
      const used = authorizeRequests(r).find((e) => query(e).get('client_id') === doc.client_id);
      const problems = [
        doc.document?.status !== 200 && `HTTP ${doc.document?.status}`,
        !body && 'not a JSON object',
        body &&
          body.client_id !== doc.client_id &&
          `client_id ${JSON.stringify(body.client_id)} is not the document's URL`,
        body && typeof body.client_name !== 'string' && 'no client_name',
        body && !Array.isArray(body.redirect_uris) && 'no redirect_uris',
        ...authorizeRequests(r)
          .filter(
            (e) =>
              query(e).get('client_id') === doc.client_id &&
              !doc.redirect_uris.includes(query(e).get('redirect_uri') ?? ''),
          )
          .map((e) => `redirect_uri not in the document: ${cite(r, e)}`),
      ].filter((p): p is string => typeof p === 'string');
      const at = used ? ` (${cite(r, used)})` : '';
      return problems.length
        ? fail(`${problems.join('; ')}${at}`, { actual: r.rig.log.hide(body ?? null) })
        : pass(`document ${doc.client_id} is valid`);
    },
  ),
  check(
    'token-endpoint-auth',
    'MUST',
    'https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-2.4',
    'Token requests authenticate by the method the client is registered for (basic, post, none)',
    // A private_key_jwt client's authentication is client-side/auth/client-assertion's, a workload's (whose grant is
    // its credential) client-side/auth/jwt-bearer-grant's: one fault, one finding.
    (sc) => sc.jwt !== true && !(sc.grant === 'jwt-bearer' && !sc.enterprise),
    (r) => {
      const reqs = tokenRequests(r);
      if (reqs.length === 0) return skip('the client made no token request');
      for (const e of reqs) {
        const used = /^Basic\s/i.test(String(e.headers.authorization ?? ''))
          ? 'client_secret_basic'
          : form(e).client_assertion_type === JWT_BEARER
            ? 'private_key_jwt'
            : typeof form(e).client_secret === 'string'
              ? 'client_secret_post'
              : 'none';
        const id = clientIdOf(e);
        const want = id === undefined ? undefined : r.rig.clients.get(id)?.token_endpoint_auth_method;
        if (want && used !== want)
          return fail(`${used} where the client is registered for ${want}: ${cite(r, e)}`, {
            expected: want,
            actual: used,
          });
      }
      return pass(`${reqs.length} token request(s) by the registered method`);
    },
  ),
  check(
    'token-in-header',
    'MUST',
    `${AUTHZ}#token-requirements`,
    'Access tokens go in the Authorization header, never in the query string',
    () => true,
    (r) => {
      const inQuery = r.rig.log.exchanges.find(
        (e) => [...query(e).values()].some((v) => r.rig.tokens.has(v)) || query(e).has('access_token'),
      );
      return inQuery ? fail(`token in the query string: ${cite(r, inQuery)}`) : pass('no token in any query string');
    },
  ),
  check(
    'token-audience',
    'MUST',
    `${AUTHZ}#token-handling`,
    'Tokens are sent only to the resource they were issued for',
    () => true,
    (r) => {
      const stray = r.rig.log.exchanges.find((e) => {
        const t = bearerOf(e);
        return t !== undefined && r.rig.tokens.has(t) && !(e.role === 'resource' && path(e) === '/mcp');
      });
      return stray
        ? fail(`a token sent to another endpoint than the MCP server: ${cite(r, stray)}`)
        : pass('tokens sent to the MCP endpoint only');
    },
  ),
  check(
    'refresh',
    'SHOULD',
    'https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-4.3',
    'offline_access is asked for only where offered, and an expired token is refreshed with the refresh token granted',
    (sc) => sc.offlineAccess !== undefined,
    (r) => {
      const first = authorizeRequests(r)[0];
      if (!first) return skip(NO_AUTHORIZATION);
      const asked = scopesOf(query(first).get('scope')).includes('offline_access');
      if (r.scenario.offlineAccess === 'unsupported')
        return asked
          ? warn(`offline_access asked for where the server does not offer it: ${cite(r, first)}`)
          : pass('offline_access not asked for');
      // "MAY add offline_access … when the Authorization Server's metadata lists it": leaving it out is the client's choice.
      if (!asked) return pass('offline_access offered and not asked for (a client MAY ask for it)');
      const expired = r.rig.find((e) => e.role === 'resource' && e.status === 401 && bearerOf(e) !== undefined)[0];
      if (!expired) return skip('the client made one MCP request only: its token never expired');
      const refresh = tokenRequests(r).find((e) => e.seq > expired.seq);
      if (!refresh) return warn(`no token request after the token expired: ${cite(r, expired)}`);
      return form(refresh).grant_type === 'refresh_token'
        ? pass(`refreshed: ${cite(r, refresh)}`)
        : warn(`a new authorization instead of a refresh: ${cite(r, refresh)}`);
    },
  ),
  check(
    'refresh-grant-type',
    'SHOULD',
    'https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#refresh-tokens',
    'A client that wants refresh tokens lists refresh_token in the grant_types of its client metadata (registration or document)',
    (sc) => sc.offlineAccess === 'supported',
    (r) => {
      // What the client said of itself: its registration's body, or the metadata document the server fetched.
      const said = [
        ...registrations(r).map((e) => ({ grants: form(e).grant_types, where: cite(r, e) })),
        ...[...r.rig.clients.values()].flatMap((c) =>
          c.via === 'cimd' && isObject(c.document?.body)
            ? [{ grants: c.document.body.grant_types, where: c.client_id }]
            : [],
        ),
      ];
      if (said.length === 0) return skip('the client neither registered nor had a metadata document fetched');
      const without = said.find((m) => !Array.isArray(m.grants) || !m.grants.includes('refresh_token'));
      return without
        ? warn(`grant_types ${JSON.stringify(without.grants ?? null)} lacks refresh_token: ${without.where}`, {
            expected: 'grant_types including refresh_token',
            actual: JSON.stringify(without.grants ?? null),
          })
        : pass('refresh_token in the grant_types of its client metadata');
    },
  ),
  check(
    'as-migration',
    'MUST',
    'https://modelcontextprotocol.io/specification/draft/basic/authorization/authorization-server-discovery#authorization-server-location',
    "When the resource metadata names a new authorization server, the client registers there and does not present the previous one's credentials",
    (sc) => sc.migrate === true,
    (r) => {
      const m = r.rig.migration;
      const changed = r.rig.find(
        (e) => e.role === 'resource' && /has changed/.test(e.answer['www-authenticate'] ?? ''),
      )[0];
      if (!m || !changed)
        return skip('the client made one request past initialization only: the authorization server never changed');
      const atNew = r.rig.find((e) => e.url.startsWith(m.to));
      const old = new Set([...r.rig.clients.values()].filter((c) => c.at === m.from).map((c) => c.client_id));
      const reused = atNew.find((e) => {
        if (!/\/(authorize|token)$/.test(path(e))) return false;
        return old.has(String(clientIdOf(e)));
      });
      if (reused)
        return fail(`the previous authorization server's client_id presented to the new one: ${cite(r, reused)}`, {
          expected: 'a registration with the new authorization server',
          actual: cite(r, reused),
        });
      const registered = atNew.find((e) => e.method === 'POST' && path(e).endsWith('/register'));
      if (!registered)
        return atNew.length === 0
          ? fail(`the client never went to the new authorization server after ${cite(r, changed)}`)
          : fail(`no registration with the new authorization server: ${cite(r, atNew[0] as HttpExchange)}`);
      return pass(`registered with the new authorization server: ${cite(r, registered)}`);
    },
  ),
  check(
    'client-assertion',
    'MUST',
    'https://datatracker.ietf.org/doc/html/rfc7523#section-3',
    'A private_key_jwt client authenticates with a JWT signed by its key whose iss and sub are its client_id, aud names the authorization server and exp is in the future',
    (sc) => sc.jwt === true,
    (r) => {
      const reqs = tokenRequests(r);
      if (reqs.length === 0) return skip(ignoredContext(r) ?? 'the client made no token request');
      const audiences = [r.rig.issuer, `${r.rig.issuer}/token`];
      for (const e of reqs) {
        const text = form(e).client_assertion;
        const a =
          form(e).client_assertion_type === JWT_BEARER && typeof text === 'string' ? readAssertion(text) : undefined;
        if (!a) return fail(`no client assertion of type jwt-bearer: ${cite(r, e)}`);
        const problems = assertionProblems(a, String(clientIdOf(e)), audiences);
        if (problems.length)
          return fail(`${problems.join('; ')}: ${cite(r, e)}`, { actual: { header: a.header, claims: a.claims } });
      }
      return pass(`${reqs.length} token request(s) with a valid client assertion`);
    },
  ),
  check(
    'client-credentials',
    'MUST',
    'https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1-13#section-4.2',
    'A client_credentials client asks the token endpoint with its credentials, without an authorization request',
    (sc) => sc.grant === 'client_credentials',
    (r) => {
      const req = tokenRequests(r)[0];
      if (!req) return ignoredContext(r) ? skip(ignoredContext(r) as string) : fail('no token request');
      if (authorizeRequests(r).length > 0)
        return fail(`an authorization request: ${cite(r, authorizeRequests(r)[0] as HttpExchange)}`);
      return form(req).grant_type === 'client_credentials'
        ? pass(cite(r, req))
        : fail(`grant_type ${String(form(req).grant_type)}: ${cite(r, req)}`);
    },
  ),
  check(
    'dpop-token-request',
    'MUST',
    RFC(9449, 'section-5'),
    "Token requests carry a valid DPoP proof (typ, alg, public jwk, signature, htm, htu, iat, a jti never used before), so the token is bound to the client's key",
    (sc) => sc.dpop !== undefined,
    (r) => {
      // A refresh's proof is client-side/auth/dpop-refresh-proof's.
      const reqs = tokenRequests(r).filter((e) => !isRefresh(e));
      if (reqs.length === 0) return skip('the client made no token request');
      for (const e of reqs) {
        if (!e.dpop)
          return fail(
            `${e.headers.dpop === undefined ? 'no DPoP proof' : 'a DPoP header that is not a JWT'}: ${cite(r, e)}`,
            { expected: 'a DPoP header carrying a proof JWT (RFC 9449 §4.2)', actual: cite(r, e) },
          );
        const failure = proofFailure(r, e);
        if (failure) return failure;
      }
      return pass(`${reqs.length} token request(s) with a valid DPoP proof`);
    },
  ),
  check(
    'dpop-refresh-proof',
    'MUST',
    RFC(9449, 'section-5'),
    'A DPoP-bound refresh token is presented with a valid DPoP proof by the key it was bound to (the key that obtained it)',
    (sc) => sc.dpop !== undefined,
    (r) => {
      const refreshes = tokenRequests(r).flatMap((e) => {
        const jkt = r.rig.tokens.get(String(form(e).refresh_token))?.jkt;
        return isRefresh(e) && jkt ? [{ e, jkt }] : [];
      });
      if (refreshes.length === 0)
        return skip(
          codeRedemptions(r).length > 1
            ? 'the client authorized again instead of refreshing (permitted: no refresh token presented)'
            : 'the client presented no DPoP-bound refresh token',
        );
      for (const { e, jkt } of refreshes) {
        if (!e.dpop)
          return fail(
            `${e.headers.dpop === undefined ? 'no DPoP proof' : 'a DPoP header that is not a JWT'} with a DPoP-bound refresh token: ${cite(r, e)}`,
            { expected: 'a DPoP proof by the key the refresh token is bound to', actual: cite(r, e) },
          );
        const otherKey = e.dpop.jkt && e.dpop.jkt !== jkt;
        const failure = proofFailure(
          r,
          e,
          otherKey ? ['signed by another key than the one the refresh token is bound to'] : [],
        );
        if (failure) return failure;
      }
      return pass(`${refreshes.length} refresh(es), each with a proof by the bound key`);
    },
  ),
  check(
    'dpop-jkt',
    'MAY',
    RFC(9449, 'section-10'),
    "Authorization requests bind the code to the client's DPoP key with dpop_jkt",
    (sc) => sc.dpop !== undefined,
    (r) => {
      const reqs = authorizeRequests(r);
      if (reqs.length === 0) return skip(NO_AUTHORIZATION);
      // A client that does no DPoP at all is dpop-token-request's finding, not one more here.
      if (!tokenRequests(r).some((e) => e.dpop !== undefined))
        return skip('the client sent no DPoP proof at all (see client-side/auth/dpop-token-request)');
      const without = reqs.find((e) => !query(e).has('dpop_jkt'));
      // RFC 9449 §10: "Use of the dpop_jkt authorization request parameter is OPTIONAL": no sentence to warn by.
      return without
        ? pass(
            `note (dpop_jkt is OPTIONAL, RFC 9449 §10): an authorization request without dpop_jkt: ${cite(r, without)}`,
          )
        : pass(`${reqs.length} authorization request(s) with dpop_jkt`);
    },
  ),
  check(
    'dpop-jkt-match',
    'MUST',
    RFC(9449, 'section-10'),
    'A dpop_jkt on an authorization request is the thumbprint of the key whose proof redeems the code',
    (sc) => sc.dpop !== undefined,
    (r) => {
      const pairs = authorizeRequests(r).flatMap((a) => {
        const jkt = query(a).get('dpop_jkt');
        const code = codeOf(a);
        const redeemed = codeRedemptions(r).filter((t) => code !== undefined && form(t).code === code && t.dpop?.jkt);
        return jkt === null ? [] : redeemed.map((t) => ({ a, t, jkt }));
      });
      if (pairs.length === 0) return skip('no code bound by dpop_jkt was redeemed with a DPoP proof');
      const bad = pairs.find(({ t, jkt }) => t.dpop?.jkt !== jkt);
      return bad
        ? fail(
            `the code of ${cite(r, bad.a)} redeemed with a proof by another key than its dpop_jkt: ${cite(r, bad.t)}`,
            {
              expected: bad.jkt,
              actual: bad.t.dpop?.jkt ?? null,
            },
          )
        : pass(`${pairs.length} code redemption(s) by the key dpop_jkt named`);
    },
  ),
  check(
    'dpop-scheme',
    'MUST',
    RFC(9449, 'section-7.1'),
    'A DPoP-bound access token is presented with the DPoP authorization scheme, not Bearer',
    (sc) => sc.dpop !== undefined,
    (r) => {
      const bound = boundRequests(r).filter(({ e }) => bearerOf(e) !== undefined);
      if (bound.length === 0) return skip(NO_BOUND_TOKEN);
      const bad = bound.find(({ e }) => !/^DPoP\s/i.test(String(e.headers.authorization)));
      return bad
        ? fail(`a DPoP-bound token presented as a bearer token: ${cite(r, bad.e)}`, {
            expected: 'Authorization: DPoP <token>',
            actual: cite(r, bad.e),
          })
        : pass(`${bound.length} request(s) with the DPoP scheme`);
    },
  ),
  check(
    'dpop-proof',
    'MUST',
    RFC(9449, 'section-7'),
    'Every MCP request presenting a DPoP-bound token carries a fresh proof for that request, signed by the key the token is bound to, its ath the hash of the token',
    (sc) => sc.dpop !== undefined,
    (r) => {
      const bound = boundRequests(r);
      if (bound.length === 0) return skip(NO_BOUND_TOKEN);
      for (const { e, jkt } of bound) {
        if (!e.dpop) return fail(`no DPoP proof with a DPoP-bound token: ${cite(r, e)}`);
        const otherKey = e.dpop.jkt && e.dpop.jkt !== jkt;
        const failure = proofFailure(
          r,
          e,
          otherKey ? ['signed by another key than the one the token is bound to'] : [],
        );
        if (failure) return failure;
      }
      return pass(`${bound.length} MCP request(s), each with its own valid proof`);
    },
  ),
  check(
    'dpop-nonce',
    'MUST',
    RFC(9449, 'section-8.2'),
    'After a use_dpop_nonce challenge the client sends its request again with a proof carrying the nonce it was given',
    (sc) => sc.dpop === 'nonce',
    (r) => {
      const challenges = r.rig.find(
        (e) =>
          e.answer['dpop-nonce'] !== undefined &&
          (nonceChallenged(e) || /use_dpop_nonce/.test(e.answer['www-authenticate'] ?? '')),
      );
      if (challenges.length === 0)
        return skip(
          'no DPoP proof reached either server, so neither asked for a nonce (see client-side/auth/dpop-token-request)',
        );
      for (const c of challenges) {
        // The proof sent again is judged; a later one without the nonce (a client that forgets the authorization
        // server's between token requests) costs a real server's new challenge, and is no violation (nor the official
        // suite's: sep-1932-client-as-nonce, -rs-nonce judge the retry).
        const again = r.rig.find((e) => e.seq > c.seq && path(e) === path(c) && e.dpop !== undefined)[0];
        if (!again) return fail(`no proof sent again after the nonce challenge: ${cite(r, c)}`);
        if (again.dpop?.claims.nonce !== c.answer['dpop-nonce'])
          return fail(`the proof sent again lacks the nonce #${c.seq} gave: ${cite(r, again)}`, {
            expected: c.answer['dpop-nonce'],
            actual: again.dpop?.claims.nonce ?? null,
          });
      }
      return pass(`the nonce of each challenge used after it (${challenges.map((c) => `#${c.seq}`).join(', ')})`);
    },
  ),
  check(
    'jwt-bearer-grant',
    'MUST',
    RFC(7523, 'section-2.1'),
    'A client holding a JWT grant (a workload JWT, an ID-JAG) asks the token endpoint with grant_type jwt-bearer and the JWT as its single assertion, without an authorization request',
    (sc) => sc.grant === 'jwt-bearer',
    (r) => {
      const reqs = untilRefused(
        r,
        tokenRequests(r).filter((e) => e.role !== 'identity'),
      );
      const first = reqs[0];
      if (!first) return skip(ignoredContext(r) ?? 'the client made no token request to the authorization server');
      const auth = untilRefused(r, authorizeRequests(r))[0];
      if (auth) return fail(`an authorization request: ${cite(r, auth)}`);
      // Any JWT the context gave is the grant's shape; which one (its audience, its expiry) is workload-jwt's.
      const grants = r.scenario.enterprise ? [...r.rig.jags] : Object.values(r.rig.context);
      for (const e of reqs) {
        const f = form(e);
        const problems = [
          f.grant_type !== JWT_GRANT && `grant_type ${JSON.stringify(f.grant_type ?? null)} is not ${JWT_GRANT}`,
          f.assertion === undefined
            ? 'no assertion parameter'
            : !grants.includes(String(f.assertion)) &&
              `the assertion parameter is not the ${r.scenario.enterprise ? 'ID-JAG the identity provider issued' : 'JWT the context gave'}`,
        ].filter((p): p is string => typeof p === 'string');
        if (problems.length) return fail(`${problems.join('; ')}: ${cite(r, e)}`);
      }
      return pass(`${reqs.length} jwt-bearer token request(s): ${cite(r, first)}`);
    },
  ),
  check(
    'workload-jwt',
    'MUST',
    RFC(7523, 'section-3'),
    'The workload JWT presented as a jwt-bearer grant names the authorization server as its audience and has not expired',
    (sc) => sc.grant === 'jwt-bearer' && !sc.enterprise,
    (r) => {
      const reqs = tokenRequests(r).filter((e) => typeof (form(e).assertion ?? form(e).client_assertion) === 'string');
      if (reqs.length === 0) return skip(ignoredContext(r) ?? 'the client presented no JWT to the token endpoint');
      for (const e of reqs) {
        const jwt = form(e).assertion ?? form(e).client_assertion;
        // Something that is no JWT at all is jwt-bearer-grant's finding (not a JWT the context gave).
        const claims = readAssertion(String(jwt))?.claims;
        const problems = claims ? workloadJwtProblems(claims, r.rig.issuer) : [];
        const named = Object.entries(r.rig.context).find(([, v]) => v === jwt);
        if (problems.length)
          return fail(`${problems.join('; ')}${named ? ` (the context's ${named[0]})` : ''}: ${cite(r, e)}`);
      }
      return pass(
        `${reqs.length} workload JWT(s) for this authorization server, unexpired: ${cite(r, reqs[0] as HttpExchange)}`,
      );
    },
  ),
  check(
    'jwt-bearer-refusal',
    'SHOULD',
    RFC(6749, 'section-5.2'),
    'After the authorization server refuses its jwt-bearer grant, the workload surfaces the error: it neither presents the grant again nor falls back to another grant',
    (sc) => sc.grant === 'jwt-bearer' && !sc.enterprise,
    (r) => {
      const refused = grantRefused(r);
      if (!refused) {
        const got = tokenRequests(r).find((e) => e.status < 300);
        return got
          ? pass(`no refusal to surface: the grant was answered with a token at once: ${cite(r, got)}`)
          : skip(ignoredContext(r) ?? 'the client made no token request to the authorization server');
      }
      const error = isObject(refused.reply) ? refused.reply.error : refused.status;
      const after = [...authorizeRequests(r), ...tokenRequests(r)]
        .filter((e) => e.seq > refused.seq)
        .sort((a, b) => a.seq - b.seq);
      const next = after[0];
      if (!next) return pass(`the client stopped at the refusal (${error}): ${cite(r, refused)}`);
      const grant = form(next).grant_type;
      const what =
        next.method === 'POST' && grant === JWT_GRANT
          ? 'presented the jwt-bearer grant again'
          : `fell back to ${next.method === 'GET' ? 'an authorization request' : `grant_type ${JSON.stringify(grant ?? null)}`}`;
      return warn(`after ${error} #${refused.seq} the client ${what}: ${cite(r, next)}`, {
        expected: `no request for a token after the refusal #${refused.seq}`,
        actual: after.slice(0, 3).map((e) => cite(r, e)),
      });
    },
  ),
  check(
    'id-jag-exchange',
    'MUST',
    RFC(8693, 'section-2.1'),
    'The ID token is exchanged at the identity provider for an ID-JAG (RFC 8693 token exchange) whose audience is the authorization server, and whose resource, if given, is the MCP server',
    (sc) => sc.enterprise === true,
    (r) => {
      const reqs = tokenRequests(r).filter((e) => e.role === 'identity');
      const first = reqs[0];
      if (!first) return skip(ignoredContext(r) ?? 'the client made no token exchange at the identity provider');
      for (const e of reqs) {
        const f = form(e);
        const want: [string, unknown][] = [
          ['grant_type', TOKEN_EXCHANGE],
          ['requested_token_type', ID_JAG_TYPE],
          ['subject_token_type', ID_TOKEN_TYPE],
          ['audience', r.rig.issuer],
          // resource is OPTIONAL in the ID-JAG draft: judged when sent.
          ...(f.resource === undefined ? [] : ([['resource', r.rig.serverUrl]] as [string, unknown][])),
        ];
        const problems = [
          ...want
            .filter(([k, v]) => String(f[k] ?? '').replace(/\/$/, '') !== String(v).replace(/\/$/, ''))
            .map(([k, v]) => `${k} ${JSON.stringify(f[k] ?? null)} is not ${v}`),
          ...(f.subject_token !== r.rig.context.idp_id_token
            ? ['subject_token is not the ID token the context gave']
            : []),
        ];
        if (problems.length) return fail(`${problems.join('; ')}: ${cite(r, e)}`);
      }
      return pass(`ID-JAG requested: ${cite(r, first)}`);
    },
  ),
];
