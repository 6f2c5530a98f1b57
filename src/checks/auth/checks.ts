import type { HttpOutcome } from '../../transport/http-base.js';
import { bearerOf, isLoopback, scopesOf } from '../../auth/challenge.js';
import {
  type AuthGate,
  authGate,
  claimsOf,
  firstHeaders,
  firstRequest,
  issuedToken,
  metadataOf,
  sendFirst,
  servedToken,
  withAuthorization,
} from './probe.js';
import { type Forged, bearerToken, forgedTokens, tamperedTokens } from './tokens.js';
import { requirement } from '../kit/requirement.js';
import { type CheckContext, type CheckDef, type Outcome, fail, pass, skip, warn } from '../kit/check.js';
import { actualOf, httpOf, is2xx, parsed, said } from '../kit/http.js';
import { mediaType, send, sessionAgent } from '../../transport/http-client.js';
import { isObject } from '../../json.js';
import { CREDENTIALS_FROM_ENVIRONMENT } from '../../skip-reason.js';

const MCP = 'https://modelcontextprotocol.io/specification';
const AUTH = (anchor: string, revision = '2025-11-25') => `${MCP}/${revision}/basic/authorization#${anchor}`;
const PRACTICES = (anchor: string) => `${MCP}/2025-11-25/basic/security_best_practices#${anchor}`;

/** Revisions with protected resource metadata (RFC 9728): 2025-06-18 on. */
const PRM_REVISIONS = ['2025-06-18', '2025-11-25', '2026-07-28'];

/** `HTTP 401; WWW-Authenticate: Bearer …`, for messages. */
function answered(o: HttpOutcome): string {
  const challenge = o.headers['www-authenticate'];
  return `${said(o)}${challenge ? `; WWW-Authenticate: ${String(challenge)}` : ''}`;
}

const actual = (o: HttpOutcome) => ({ ...actualOf(o), 'www-authenticate': o.headers['www-authenticate'] ?? null });

/** Runs `judge` once the gate says authorization is on; otherwise skips with the gate's reason. */
async function gated(ctx: CheckContext, judge: (gate: AuthGate) => Promise<Outcome>): Promise<Outcome> {
  const gate = await authGate(ctx);
  return gate.off ? skip(gate.off) : judge(gate);
}

/**
 * Sends each credential with the first request of the wire; all must get 401 (400 for a malformed header). A session a
 * served one opened is ended again.
 */
async function rejectsAll(ctx: CheckContext, tokens: Forged[]): Promise<Outcome> {
  const http = httpOf(await ctx.fresh());
  const wrong: { what: string; o: HttpOutcome }[] = [];
  for (const t of tokens) {
    const o = await sendFirst(ctx, http, t.what, t.authorization);
    if (!(o.status === 401 || (t.malformed && o.status === 400))) wrong.push({ what: t.what, o });
  }
  if (wrong.length === 0) return pass(`${tokens.map((t) => t.what).join(', ')} → 401`);
  return fail(wrong.map((w) => `${w.what} → ${said(w.o)}${is2xx(w.o) ? ' (served)' : ''}`).join('; '), {
    expected: 'HTTP 401 (400 for a malformed header)',
    actual: wrong.map((w) => ({ token: w.what, ...actual(w.o) })),
  });
}

/** An authorization check: Streamable HTTP only, every revision unless it names some, judged once the gate says authorization is on. */
type AuthCheck = Omit<CheckDef, 'run' | 'transport' | 'offTransport'> & {
  judge(ctx: CheckContext, gate: AuthGate): Promise<Outcome>;
};
const authCheck = ({ judge, revisions = ['2025-03-26', ...PRM_REVISIONS], ...def }: AuthCheck): CheckDef => ({
  ...def,
  transport: 'http',
  offTransport: CREDENTIALS_FROM_ENVIRONMENT,
  revisions,
  run: (ctx) => gated(ctx, (gate) => judge(ctx, gate)),
});

/** The authorization area (requirements §1.6): an HTTP server as an OAuth 2.1 protected resource. */
export const AUTH_CHECKS: CheckDef[] = [
  authCheck({
    id: 'auth/challenge/unauthorized-401',
    title: 'A request without a token gets 401',
    requirement: requirement(
      'auth.401',
      'MUST',
      AUTH('error-handling'),
      '"When authorization is required and not yet proven by the client, servers MUST respond with HTTP 401"',
    ),
    covers: ['auth.status-codes'],
    judge: async (ctx, { first }) => {
      const what = `${firstRequest(ctx, '').method} without a token → ${answered(first)}`;
      if (first.status === 401) return pass(what);
      return fail(what, { expected: 'HTTP 401', actual: actual(first) });
    },
  }),
  authCheck({
    id: 'auth/challenge/bearer',
    title: 'The 401 carries a Bearer challenge',
    requirement: requirement(
      'auth.challenge.bearer',
      'MUST',
      'https://www.rfc-editor.org/rfc/rfc9110#section-15.5.2',
      'RFC 9110 §15.5.2: "The server generating a 401 response MUST send a WWW-Authenticate header field"; RFC 6750 §3: the Bearer scheme',
    ),
    judge: async (_ctx, { first, challenge }) => {
      if (first.status !== 401)
        return skip(
          `the request without a token got ${said(first)}, not 401 (auth/challenge/unauthorized-401 judges that)`,
        );
      if (challenge) return pass(`401 with WWW-Authenticate: ${String(first.headers['www-authenticate'])}`);
      return fail(
        `401 ${first.headers['www-authenticate'] === undefined ? 'without WWW-Authenticate' : `with WWW-Authenticate: ${String(first.headers['www-authenticate'])}, no Bearer challenge`}`,
        { expected: 'WWW-Authenticate: Bearer …', actual: actual(first) },
      );
    },
  }),
  authCheck({
    id: 'auth/challenge/no-error-without-credentials',
    title: 'The challenge to a request without credentials has no error code',
    requirement: requirement(
      'auth.challenge.no-error-without-credentials',
      'SHOULD',
      'https://www.rfc-editor.org/rfc/rfc6750#section-3',
      'RFC 6750 §3: "If the request lacks any authentication information … the resource server SHOULD NOT include an error code"',
    ),
    judge: async (_ctx, { challenge }) => {
      if (!challenge) return skip('no Bearer challenge to judge');
      const error = challenge.params.error;
      if (error === undefined) return pass('the challenge names no error');
      return warn(`the challenge to a request without credentials names error="${error}"`, {
        expected: 'no error= parameter',
        actual: challenge,
      });
    },
  }),
  authCheck({
    id: 'auth/challenge/scope',
    title: 'The challenge names the scope to ask for',
    requirement: requirement(
      'auth.scope-hint',
      'SHOULD',
      AUTH('protected-resource-metadata-discovery-requirements'),
      '"MCP servers SHOULD include a scope parameter in the WWW-Authenticate header"',
    ),
    revisions: ['2025-11-25', '2026-07-28'],
    judge: async (_ctx, { challenge }) => {
      if (!challenge) return skip('no Bearer challenge to judge');
      const scope = challenge.params.scope;
      if (scope !== undefined && scope.trim() !== '') return pass(`scope="${scope}"`);
      return warn('the Bearer challenge has no scope parameter', { expected: 'scope="…"', actual: challenge });
    },
  }),
  authCheck({
    id: 'auth/metadata/discoverable',
    title: 'The protected resource metadata is discoverable',
    requirement: requirement(
      'auth.prm.discovery',
      'MUST',
      AUTH('protected-resource-metadata-discovery-requirements'),
      '"MCP servers MUST implement one of the following discovery mechanisms": resource_metadata in the WWW-Authenticate header, or the well-known URI (2025-06-18: the header). A server that wants a token but serves no metadata at all does not implement MCP authorization, which is OPTIONAL: WARN',
    ),
    revisions: PRM_REVISIONS,
    judge: async (ctx, gate) => {
      const named = gate.challenge?.params.resource_metadata;
      if (named !== undefined) return pass(`the challenge names resource_metadata="${named}"`);
      const meta = await metadataOf(ctx, gate);
      // Authorization is OPTIONAL, and a server that supports it SHOULD conform (Protocol Requirements): one that wants
      // a token (an API key) and serves no metadata anywhere does not implement MCP authorization, which breaks no MUST.
      if (!meta.outcome || !is2xx(meta.outcome)) {
        return warn(
          `the server requires a token but does not implement MCP authorization: ${meta.why ?? 'no metadata found'}`,
          {
            expected: 'resource_metadata in the challenge, or a document at a well-known URI',
            actual: actual(gate.first),
          },
        );
      }
      if (ctx.profile.requestedVersion === '2025-06-18')
        return fail(
          `the 401 does not name resource_metadata, though the metadata is at the ${meta.from} ${meta.url!.pathname} (2025-06-18: "MCP servers MUST use the HTTP header WWW-Authenticate when returning a 401 Unauthorized to indicate the location of the resource server metadata URL")`,
          { expected: 'WWW-Authenticate: Bearer resource_metadata="…"', actual: actual(gate.first) },
        );
      return pass(`no resource_metadata in the challenge; the metadata is at the ${meta.from} ${meta.url!.pathname}`);
    },
  }),
  authCheck({
    id: 'auth/metadata/document',
    title: 'The metadata document is served without a token and names this resource',
    requirement: requirement(
      'auth.prm.document',
      'MUST',
      'https://www.rfc-editor.org/rfc/rfc9728#section-3.3',
      'RFC 9728: the metadata is a 200 application/json response (§3.2) with `resource` (REQUIRED, §2), "identical to the protected resource\'s resource identifier value into which the well-known URI path suffix was inserted" (§3.3)',
    ),
    revisions: PRM_REVISIONS,
    judge: async (ctx, gate) => {
      const meta = await metadataOf(ctx, gate);
      if (!meta.outcome) return skip(meta.why ?? 'no metadata to judge');
      const o = meta.outcome;
      const where = `${meta.url!.href} (from the ${meta.from})`;
      if (o.status !== 200 || o.contentType !== 'application/json' || !isObject(parsed(o.body)))
        return fail(`GET ${where} without a token → ${said(o)}`, {
          expected: 'HTTP 200 application/json, a JSON object',
          actual: actualOf(o),
        });
      const resource = meta.json!.resource;
      if (typeof resource !== 'string')
        return fail(`the metadata at ${where} has no resource string`, {
          expected: { resource: gate.endpoint.href },
          actual: meta.json,
        });
      let url: URL;
      try {
        url = new URL(resource);
      } catch {
        return fail(`resource ${JSON.stringify(resource)} is no absolute URI`, {
          expected: gate.endpoint.href,
          actual: resource,
        });
      }
      if (resource.includes('#'))
        return fail(`resource ${resource} has a fragment`, { expected: gate.endpoint.href, actual: resource });
      const endpoint = gate.endpoint;
      if (url.href === endpoint.href || url.href === `${endpoint.href}/` || `${url.href}/` === endpoint.href)
        return pass(`${where}: 200 application/json, resource ${resource}`);
      // The same machine by another loopback name (localhost for 127.0.0.1): what the client connected to decides.
      const aliased =
        isLoopback(url) && isLoopback(endpoint) && url.port === endpoint.port && url.pathname === endpoint.pathname;
      if (aliased)
        return warn(
          `resource ${resource} names this endpoint by another loopback name than ${endpoint.href}, the URL the client used`,
          { expected: endpoint.href, actual: resource },
        );
      if (url.origin === endpoint.origin && meta.from === 'root well-known URI')
        return warn(`the root metadata names resource ${resource}, not this endpoint ${endpoint.href}`, {
          expected: endpoint.href,
          actual: resource,
        });
      return fail(`resource ${resource} is not this endpoint ${endpoint.href}`, {
        expected: endpoint.href,
        actual: resource,
      });
    },
  }),
  authCheck({
    id: 'auth/metadata/authorization-servers',
    title: 'The metadata names at least one authorization server',
    requirement: requirement(
      'auth.prm.authorization_servers',
      'MUST',
      AUTH('authorization-server-location'),
      '"The Protected Resource Metadata document returned by the MCP server MUST include the authorization_servers field containing at least one authorization server"',
    ),
    revisions: PRM_REVISIONS,
    judge: async (ctx, gate) => {
      const meta = await metadataOf(ctx, gate);
      if (!meta.json) return skip(meta.why ?? 'no metadata document to judge');
      const servers = meta.json.authorization_servers;
      if (Array.isArray(servers) && servers.length > 0 && servers.every((s) => typeof s === 'string'))
        return pass(`authorization_servers ${JSON.stringify(servers)}`);
      return fail(`authorization_servers is ${JSON.stringify(servers) ?? 'missing'}`, {
        expected: 'a non-empty array of issuer URLs',
        actual: meta.json,
      });
    },
  }),
  authCheck({
    id: 'auth/metadata/no-offline-access',
    title: 'Neither the challenge nor the metadata asks for offline_access',
    requirement: requirement(
      'auth.prm.no-offline-access',
      'SHOULD',
      AUTH('scope-selection', '2026-07-28'),
      'Scope Selection: the challenge `scope` and `scopes_supported` "SHOULD NOT include offline_access"',
    ),
    revisions: ['2026-07-28'],
    judge: async (ctx, gate) => {
      const meta = await metadataOf(ctx, gate);
      const where = [
        scopesOf(gate.challenge?.params.scope).includes('offline_access') && 'the challenge scope',
        scopesOf(meta.json?.scopes_supported).includes('offline_access') && 'scopes_supported',
      ].filter(Boolean);
      if (where.length > 0)
        return warn(`offline_access in ${where.join(' and ')}`, {
          expected: 'no offline_access',
          actual: { scope: gate.challenge?.params.scope, scopes_supported: meta.json?.scopes_supported },
        });
      return pass('no offline_access in the challenge or the metadata');
    },
  }),
  authCheck({
    id: 'auth/unauthenticated/all-methods',
    title: 'GET and DELETE without a token are not served',
    requirement: requirement(
      'auth.unauthenticated.all-methods',
      'MUST',
      PRACTICES('authorization'),
      '"MCP servers that implement authorization MUST verify all inbound requests"',
    ),
    judge: async (ctx) => {
      const http = httpOf(await ctx.fresh());
      const answers: { method: 'GET' | 'DELETE'; o: HttpOutcome }[] = [];
      for (const method of ['GET', 'DELETE'] as const)
        answers.push({
          method,
          o: await http.probe(
            method,
            `${method} without a token`,
            withAuthorization(http, undefined),
            undefined,
            ctx.timeoutMs,
          ),
        });
      const shown = answers.map((a) => `${a.method} → ${said(a.o)}`).join(', ');
      const served = answers.filter((a) => is2xx(a.o));
      if (served.length > 0)
        return fail(`${shown}: served without a token`, {
          expected: 'HTTP 401 (or 405)',
          actual: answers.map((a) => ({ method: a.method, ...actual(a.o) })),
        });
      // Refused before its credentials were looked at (e.g. 400 for a missing session id): not served, yet not verified.
      const unverified = answers.filter((a) => a.o.status !== 401 && a.o.status !== 405);
      if (unverified.length > 0)
        return warn(`${shown}: refused, but not with 401 (or 405)`, {
          expected: 'HTTP 401 (or 405)',
          actual: answers.map((a) => ({ method: a.method, ...actual(a.o) })),
        });
      return pass(shown);
    },
  }),
  authCheck({
    id: 'auth/transport/https',
    title: 'Endpoints other than loopback use HTTPS',
    requirement: requirement(
      'auth.transport.https',
      'MUST',
      AUTH('communication-security'),
      '"All authorization server endpoints MUST be served over HTTPS" (OAuth 2.1 §1.5; loopback redirect URIs excepted)',
    ),
    judge: async (ctx, gate) => {
      const meta = await metadataOf(ctx, gate);
      const servers = Array.isArray(meta.json?.authorization_servers) ? meta.json.authorization_servers : [];
      const urls = [
        gate.endpoint.href,
        ...[meta.json?.resource, ...servers].filter((u): u is string => typeof u === 'string'),
      ];
      const plain = urls.filter((u) => {
        try {
          const url = new URL(u);
          return url.protocol === 'http:' && !isLoopback(url);
        } catch {
          return false;
        }
      });
      // A black-box client cannot tell a TLS-terminating proxy from plain HTTP: a warning, not a verdict.
      if (plain.length > 0)
        return warn(`plain http:// on a host that is not loopback: ${[...new Set(plain)].join(', ')}`, {
          expected: 'https:// (or a loopback host)',
          actual: urls,
        });
      return pass(`${urls.length} URL${urls.length === 1 ? '' : 's'}, each https:// or loopback`);
    },
  }),
  authCheck({
    id: 'auth/token/forged',
    title: 'Tokens the suite makes itself are refused with 401',
    requirement: requirement(
      'auth.token.invalid-rejected',
      'MUST',
      AUTH('token-handling'),
      '"Invalid or expired tokens MUST receive a HTTP 401 response"',
    ),
    judge: async (ctx, gate) => {
      const tokens = await forgedTokens(await claimsOf(ctx, gate));
      return rejectsAll(ctx, tokens);
    },
  }),
  authCheck({
    id: 'auth/token/tampered',
    title: 'Tampered copies of a served token are refused with 401',
    requirement: requirement(
      'auth.token.invalid-rejected',
      'MUST',
      AUTH('token-handling'),
      '"Invalid or expired tokens MUST receive a HTTP 401 response": a copy with a changed or stripped signature, or re-signed, is invalid',
    ),
    judge: async (ctx, gate) => {
      const token = await servedToken(ctx, gate);
      if (!token.authorization) return skip(`not run: ${token.why}`);
      return rejectsAll(ctx, await tamperedTokens(bearerToken(token.authorization)!));
    },
  }),
  authCheck({
    id: 'auth/session/not-authentication',
    title: 'A session id without the token is refused',
    requirement: requirement(
      'auth.session-not-auth',
      'MUST',
      PRACTICES('session-hijacking'),
      '"MCP Servers MUST NOT use sessions for authentication"',
    ),
    revisions: ['2025-03-26', '2025-06-18', '2025-11-25'],
    judge: async (ctx, gate) => {
      const token = await servedToken(ctx, gate);
      if (!token.authorization) return skip(`not run: ${token.why}`);
      const http = httpOf(await ctx.fresh());
      const withToken = withAuthorization(http, token.authorization);
      const { body } = firstRequest(ctx, 'mcp-conformance-auth-session');
      const init = await http.probe('POST', 'initialize with the token', withToken, body, ctx.timeoutMs);
      const sid = init.headers['mcp-session-id'];
      if (typeof sid !== 'string')
        return skip(`the server issued no session id (initialize → ${said(init)}), so there is no session to reuse`);
      const session = { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': ctx.profile.requestedVersion };
      await http.probe(
        'POST',
        'notifications/initialized',
        { ...withToken, ...session },
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
        ctx.timeoutMs,
      );
      const without = { ...withAuthorization(http, undefined), ...session };
      const answers = [
        {
          what: 'ping',
          o: await http.probe(
            'POST',
            'ping with the session id, without the token',
            without,
            JSON.stringify({ jsonrpc: '2.0', id: 'mcp-conformance-auth-session-ping', method: 'ping' }),
            ctx.timeoutMs,
          ),
        },
        {
          what: 'GET',
          o: await http.probe('GET', 'GET with the session id, without the token', without, undefined, ctx.timeoutMs),
        },
        {
          what: 'DELETE',
          o: await http.probe(
            'DELETE',
            'DELETE with the session id, without the token',
            without,
            undefined,
            ctx.timeoutMs,
          ),
        },
      ];
      await http.probe('DELETE', 'end the session', { ...withToken, ...session }, undefined, ctx.timeoutMs);
      const shown = answers.map((a) => `${a.what} → ${said(a.o)}`).join(', ');
      const wrong = answers.filter((a) => a.o.status !== 401 && !(a.what !== 'ping' && a.o.status === 405));
      if (wrong.length === 0) return pass(`with the session id of an authenticated session but no token: ${shown}`);
      const verdict = wrong.some((a) => is2xx(a.o)) ? fail : warn;
      return verdict(`with the session id of an authenticated session but no token: ${shown}`, {
        expected: 'HTTP 401',
        actual: answers.map((a) => ({ sent: a.what, ...actual(a.o) })),
      });
    },
  }),
  authCheck({
    id: 'auth/token/audience',
    title: 'Tokens issued for another resource, or for none, are refused with 401',
    requirement: requirement(
      'auth.token.audience',
      'MUST',
      AUTH('token-handling'),
      '"MCP servers MUST validate that access tokens were issued specifically for them as the intended audience, according to RFC 8707 Section 2"',
    ),
    revisions: PRM_REVISIONS,
    judge: async (ctx, gate) => {
      const issued = await issuedToken(ctx, gate);
      if (!issued.authorization) return skip(`not run: ${issued.why}`);
      const source = issued.source!;
      const { scope } = issued.claims;
      const other = 'https://other-resource.example/mcp';
      const tokens: Forged[] = [];
      const refused: string[] = [];
      for (const [what, aud] of [
        [`a token issued for another resource (${other})`, other],
        ['a token issued with no audience', undefined],
      ] as const) {
        try {
          tokens.push({ what, authorization: `Bearer ${await source.issue({ aud, scope })}` });
        } catch (err) {
          refused.push(`${source.name} would not issue ${what} (${(err as Error).message})`);
        }
      }
      if (tokens.length === 0) return skip(`${refused.join('; ')}: nothing to judge`);
      const outcome = await rejectsAll(ctx, tokens);
      return refused.length > 0 ? { ...outcome, message: `${outcome.message}; ${refused.join('; ')}` } : outcome;
    },
  }),
  authCheck({
    id: 'auth/token/claims',
    title: 'Expired, not yet valid, wrongly issued and unknown-key tokens are refused with 401',
    requirement: requirement(
      'auth.token.invalid-rejected',
      'MUST',
      AUTH('token-handling'),
      '"Invalid or expired tokens MUST receive a HTTP 401 response"',
    ),
    judge: async (ctx, gate) => {
      const issued = await issuedToken(ctx, gate);
      if (!issued.authorization) return skip(`not run: ${issued.why}`);
      if (!issued.source?.local)
        return skip(
          'not run: needs the --auth-server, which signs tokens as asked (expired, not yet valid, another issuer, an unknown key)',
        );
      const issuer = ctx.issuer!;
      const base = issued.claims;
      return rejectsAll(ctx, [
        {
          what: 'a token that expired an hour ago',
          authorization: `Bearer ${await issuer.issue({ ...base, exp: -3600, nbf: -7200 })}`,
        },
        {
          what: 'a token valid only from an hour on',
          authorization: `Bearer ${await issuer.issue({ ...base, nbf: 3600, exp: 7200 })}`,
        },
        {
          what: 'a token naming another issuer',
          authorization: `Bearer ${await issuer.issue({ ...base, iss: 'https://other-issuer.example' })}`,
        },
        {
          what: 'a token signed with a key the issuer never published (unknown kid)',
          authorization: `Bearer ${await issuer.issue({ ...base, unknownKey: true })}`,
        },
      ]);
    },
  }),
  authCheck({
    id: 'auth/scope/insufficient',
    title: 'A token without the needed scope gets 403 insufficient_scope',
    requirement: requirement(
      'auth.insufficient-scope',
      'SHOULD',
      AUTH('scope-challenge-handling'),
      'Scope challenge handling: a token with too little scope gets "HTTP 403 Forbidden" with WWW-Authenticate: Bearer error="insufficient_scope", scope="…"',
    ),
    covers: ['auth.status-codes'],
    revisions: ['2025-11-25', '2026-07-28'],
    judge: async (ctx, gate) => {
      const issued = await issuedToken(ctx, gate);
      if (!issued.authorization) return skip(`not run: ${issued.why}`);
      if (!issued.source?.local) return skip('not run: needs the --auth-server, which signs a token without the scope');
      if (!issued.claims.scope)
        return skip('the server names no scope to leave out (no scope in the challenge, no scopes_supported)');
      const http = httpOf(await ctx.fresh());
      const o = await sendFirst(
        ctx,
        http,
        'a token without the scope',
        `Bearer ${await ctx.issuer!.issue({ aud: issued.claims.aud })}`,
      );
      const what = `a token without scope "${issued.claims.scope}" → ${answered(o)}`;
      if (is2xx(o)) return skip(`${what}: the server serves it, so no scope is needed for this request`);
      const challenge = bearerOf(o.headers['www-authenticate']);
      if (o.status === 403 && challenge?.params.error === 'insufficient_scope' && challenge.params.scope)
        return pass(what);
      return warn(what, {
        expected: 'HTTP 403; WWW-Authenticate: Bearer error="insufficient_scope", scope="…"',
        actual: actual(o),
      });
    },
  }),
  authCheck({
    id: 'auth/token/query-string',
    title: 'A token in the query string instead of the Authorization header is not served',
    requirement: requirement(
      'auth.no-query-token',
      'MUST',
      AUTH('token-requirements'),
      '"Access tokens MUST NOT be included in the URI query string" (a client rule; a server that takes them invites tokens in logs and Referer headers)',
    ),
    judge: async (ctx, gate) => {
      const token = await servedToken(ctx, gate);
      if (!token.authorization) return skip(`not run: ${token.why}`);
      const session = await ctx.fresh();
      const url = new URL(gate.endpoint);
      url.searchParams.set('access_token', bearerToken(token.authorization)!);
      const { body, method } = firstRequest(ctx, 'mcp-conformance-auth-query');
      const agent = sessionAgent(url);
      try {
        // Sent apart from the transports, whose transcripts name their URL: this one holds the token.
        const res = await send({
          method: 'POST',
          url,
          headers: {
            Accept: 'application/json, text/event-stream',
            'Content-Type': 'application/json',
            ...firstHeaders(ctx),
          },
          body,
          agent,
          signal: AbortSignal.timeout(ctx.timeoutMs),
        }).catch((err: Error) => err);
        if (res instanceof Error)
          return skip(
            `${method} with the token in the query string got no answer within --timeout (${res.message}): nothing to judge`,
          );
        res.resume();
        const o: HttpOutcome = {
          status: res.statusCode,
          contentType: mediaType(res),
          headers: res.headers,
          bytes: 0,
          body: '',
        };
        session.transcript.add(
          'event',
          `POST ${method} with ?access_token=*** and no Authorization header → ${answered(o)}`,
        );
        const what = `${method} with the token in the query string, none in the header → ${said(o)}`;
        if (!is2xx(o)) return pass(what);
        return warn(`${what}: served`, { expected: 'not served (HTTP 401)', actual: actual(o) });
      } finally {
        agent.destroy();
      }
    },
  }),
];
