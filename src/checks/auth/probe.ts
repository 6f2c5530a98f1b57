import { statelessMeta } from '../../discovery/discover.js';
import { STATELESS_REVISION } from '../../schema/revisions.js';
import type { HttpOutcome } from '../../transport/http-base.js';
import { StreamableHttpTransport } from '../../transport/http.js';
import { TOOL } from '../../version.js';
import { isObject } from '../../json.js';
import { ISSUER_ENV } from '../../auth/issuer.js';
import { loopbackToken } from '../../auth/loopback-client.js';
import { type Challenge, bearerOf, isLoopback, scopesOf, wellKnownUrls } from '../../auth/challenge.js';
import { bearerToken } from './tokens.js';
import type { CheckContext } from '../kit/check.js';
import { httpOf, is2xx, parsed, said } from '../kit/http.js';

/**
 * What the authorization checks share, probed once per run: how the server answers the first request of the wire
 * without a token, its challenge, its metadata document, and whether the user's token is served.
 */
export interface AuthGate {
  endpoint: URL;
  /** Set when there is nothing to judge: authorization is off (the server serves without a token). */
  off?: string;
  /** The answer to the first request of the wire sent without a token. */
  first: HttpOutcome;
  challenge?: Challenge;
  /** The user's `Authorization` value (--header or --token-env), if any. */
  user?: string;
}

export interface Metadata {
  /** Where it was found; undefined when nowhere. */
  url?: URL;
  from?: 'challenge' | 'path-suffixed well-known URI' | 'root well-known URI';
  outcome?: HttpOutcome;
  json?: Record<string, unknown>;
  /** Why it was not fetched or not found. */
  why?: string;
}

export const OFF = 'authorization is off: the server serves requests without a token';
export const AUTHORIZATION = 'Authorization';

/** The body of the first request of the wire: initialize, or server/discover on the stateless wire. */
export function firstRequest(ctx: CheckContext, id: string): { method: string; body: string } {
  const version = ctx.profile.requestedVersion;
  if (version === STATELESS_REVISION)
    return {
      method: 'server/discover',
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'server/discover',
        params: { _meta: statelessMeta(version) },
      }),
    };
  return {
    method: 'initialize',
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: TOOL },
    }),
  };
}

/** The headers the stateless wire's first request mirrors from its body (the transports add them to their own requests). */
export function firstHeaders(ctx: CheckContext): Record<string, string> {
  const version = ctx.profile.requestedVersion;
  return version === STATELESS_REVISION ? { 'MCP-Protocol-Version': version, 'Mcp-Method': 'server/discover' } : {};
}

/** The user's Authorization header value of a transport. */
export function userAuthorization(http: StreamableHttpTransport): string | undefined {
  return Object.entries(http.userHeaders).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
}

/** A probe of the first request with `authorization` (undefined: none); a session it opened is ended again. */
export async function sendFirst(
  ctx: CheckContext,
  http: StreamableHttpTransport,
  label: string,
  authorization: string | undefined,
): Promise<HttpOutcome> {
  const { body } = firstRequest(ctx, `mcp-conformance-auth-${label.replace(/\W+/g, '-')}`);
  const overrides = withAuthorization(http, authorization);
  // A server that never answers must not hold the check past --timeout.
  const o = await http.probe('POST', label, overrides, body, ctx.timeoutMs);
  const sid = o.headers['mcp-session-id'];
  if (typeof sid === 'string')
    await http.probe(
      'DELETE',
      `end the session ${label} opened`,
      { ...overrides, 'Mcp-Session-Id': sid },
      undefined,
      ctx.timeoutMs,
    );
  return o;
}

/** Header overrides that send `authorization` in place of the user's header (undefined removes it). */
export function withAuthorization(
  http: StreamableHttpTransport,
  authorization: string | undefined,
): Record<string, string | undefined> {
  const names = Object.keys(http.userHeaders).filter((n) => n.toLowerCase() === 'authorization');
  return { ...Object.fromEntries(names.map((n) => [n, undefined])), [AUTHORIZATION]: authorization };
}

/** The run's gate: the first request without a token (once per run). */
export function authGate(ctx: CheckContext): Promise<AuthGate> {
  return ctx.memo('auth/gate', async () => {
    const http = httpOf(await ctx.fresh());
    const first = await sendFirst(ctx, http, 'without a token', undefined);
    const user = userAuthorization(http);
    const base = { endpoint: http.url, first, ...(user !== undefined && { user }) };
    if (is2xx(first)) return { ...base, off: OFF };
    if (first.status === undefined)
      return { ...base, off: `nothing to judge: the first request without a token got no answer (${first.error})` };
    return { ...base, challenge: bearerOf(first.headers['www-authenticate']) };
  });
}

/** Whether a URL is on the endpoint's host: the suite fetches metadata there only, never from other hosts. */
const sameHost = (a: URL, b: URL) => a.hostname === b.hostname;

/** The protected resource metadata: from the challenge's resource_metadata, else the well-known URIs (once per run). */
export function metadataOf(ctx: CheckContext, gate: AuthGate): Promise<Metadata> {
  return ctx.memo('auth/metadata', async () => {
    const session = await ctx.fresh();
    const named = gate.challenge?.params.resource_metadata;
    const candidates: { url: URL; from: NonNullable<Metadata['from']> }[] = [];
    if (named !== undefined) {
      let url: URL;
      try {
        url = new URL(named);
      } catch {
        return { why: `the challenge's resource_metadata ${JSON.stringify(named)} is no URL` };
      }
      candidates.push({ url, from: 'challenge' });
    } else {
      for (const w of wellKnownUrls(gate.endpoint))
        candidates.push({ url: w.url, from: w.suffixed ? 'path-suffixed well-known URI' : 'root well-known URI' });
    }
    const tried: string[] = [];
    for (const { url, from } of candidates) {
      if (!sameHost(url, gate.endpoint))
        return {
          url,
          from,
          why: `the metadata is on another host (${url.host}); the suite sends nothing to hosts other than the server's`,
        };
      const doc = new StreamableHttpTransport({ url, headers: {} }, session.transcript);
      const outcome = await doc.probe(
        'GET',
        `metadata at the ${from}`,
        { Accept: 'application/json' },
        undefined,
        ctx.timeoutMs,
      );
      await doc.close();
      const json = parsed(outcome.body);
      // Only a served document is judged for its content (an error's JSON body is no metadata).
      if (from === 'challenge' || is2xx(outcome))
        return {
          url,
          from,
          outcome,
          ...(is2xx(outcome) && isObject(json) && { json }),
          ...(!is2xx(outcome) && { why: `the metadata at ${url.href} → ${said(outcome)}` }),
        };
      tried.push(`${url.pathname} → ${said(outcome)}`);
    }
    return { why: `no metadata: the challenge names no resource_metadata, and ${tried.join(', ')}` };
  });
}

/** What the suite's tokens claim: the issuer and audience the server names, and the scopes it asks for. */
export async function claimsOf(
  ctx: CheckContext,
  gate: AuthGate,
): Promise<{ iss?: string; aud: string; scope?: string }> {
  const meta = await metadataOf(ctx, gate);
  const servers = meta.json?.authorization_servers;
  const iss = Array.isArray(servers) && typeof servers[0] === 'string' ? servers[0] : undefined;
  const aud = typeof meta.json?.resource === 'string' ? meta.json.resource : gate.endpoint.href;
  const scope = scopesOf(gate.challenge?.params.scope ?? meta.json?.scopes_supported).join(' ');
  return { ...(iss && { iss }), aud, ...(scope && { scope }) };
}

/** Who issues the suite's tokens for the checks that need a trusted issuer. */
export interface TokenSource {
  /** For messages: `the --auth-server`, or the server's own authorization server. */
  name: string;
  /** The suite's own --auth-server: it can also sign expired, wrongly issued and scope-less tokens. */
  local: boolean;
  issue(claims: { aud?: string; scope?: string }): Promise<string>;
}

/** The --auth-server, else the server's own authorization server when it is on this machine and needs no login. */
function sourceOf(ctx: CheckContext, servers: unknown): TokenSource | string {
  const issuer = ctx.issuer;
  if (issuer)
    return { name: `the --auth-server (${issuer.issuer})`, local: true, issue: (claims) => issuer.issue(claims) };
  const first = Array.isArray(servers) && typeof servers[0] === 'string' ? servers[0] : undefined;
  let url: URL | undefined;
  try {
    url = first === undefined ? undefined : new URL(first);
  } catch {
    url = undefined;
  }
  if (!url || !isLoopback(url))
    return 'the run has no --auth-server to issue tokens (and the server names no authorization server on this machine)';
  return {
    name: `the server's authorization server ${url.origin}`,
    local: false,
    issue: ({ aud, scope }) => loopbackToken(first!, aud, scope),
  };
}

/** A token a trusted issuer made for this resource, if the server serves it (once per run): the gate of the issuer's checks. */
export function issuedToken(
  ctx: CheckContext,
  gate: AuthGate,
): Promise<{ authorization?: string; why?: string; claims: { aud: string; scope?: string }; source?: TokenSource }> {
  return ctx.memo('auth/issued-token', async () => {
    const { aud, scope } = await claimsOf(ctx, gate);
    const claims = { aud, ...(scope && { scope }) };
    const source = sourceOf(ctx, (await metadataOf(ctx, gate)).json?.authorization_servers);
    if (typeof source === 'string') return { why: source, claims };
    let authorization: string;
    try {
      authorization = `Bearer ${await source.issue(claims)}`;
    } catch (err) {
      return { why: `${source.name} gave no token: ${(err as Error).message}`, claims };
    }
    const http = httpOf(await ctx.fresh());
    const o = await sendFirst(ctx, http, `with a token ${source.name} issued`, authorization);
    const trust = source.local ? ` (does the server trust ${ctx.issuer!.issuer}? ${ISSUER_ENV})` : '';
    if (!is2xx(o))
      return {
        why: `a token ${source.name} issued for ${aud}${scope ? ` with scope "${scope}"` : ''} was not served (${firstRequest(ctx, '').method} → ${said(o)})${trust}`,
        claims,
      };
    return { authorization, claims, source };
  });
}

/** A token the server serves, for the checks that need one: the user's, else one the --auth-server issued. */
export function servedToken(ctx: CheckContext, gate: AuthGate): Promise<{ authorization?: string; why?: string }> {
  return ctx.memo('auth/user-token', async () => {
    if (gate.user === undefined || bearerToken(gate.user) === undefined) {
      const issued = await issuedToken(ctx, gate);
      if (issued.authorization) return issued;
      return { why: "no token was given (--header 'Authorization: Bearer …', --token-env NAME or --auth-server)" };
    }
    const http = httpOf(await ctx.fresh());
    const o = await sendFirst(ctx, http, 'with the given token', gate.user);
    if (!is2xx(o))
      return { why: `the given token was not served: ${firstRequest(ctx, '').method} with it → ${said(o)}` };
    return { authorization: gate.user };
  });
}
