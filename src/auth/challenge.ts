/** A challenge of a WWW-Authenticate header (RFC 9110 §11.6.1): its scheme and auth-params (names lower-case). */
export interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;

/**
 * The challenges of a WWW-Authenticate header value (several headers arrive joined by commas). A challenge is a scheme,
 * then a token68 or comma-separated `name=value` params, a value a token or a quoted string.
 */
export function parseChallenges(header: string | string[] | undefined): Challenge[] {
  const text = Array.isArray(header) ? header.join(', ') : (header ?? '');
  const challenges: Challenge[] = [];
  let rest = text.trim();
  let current: Challenge | undefined;
  while (rest.length > 0) {
    rest = rest.replace(/^[\s,]+/, '');
    const name = TOKEN.exec(rest)?.[0];
    if (!name) break;
    const after = rest.slice(name.length).trimStart();
    if (current && after.startsWith('=') && !after.startsWith('==')) {
      // name=value: a param of the current challenge.
      let value = after.slice(1).trimStart();
      let parsed: string;
      if (value.startsWith('"')) {
        const m = /^"((?:[^"\\]|\\.)*)"/.exec(value);
        parsed = (m?.[1] ?? value.slice(1)).replace(/\\(.)/g, '$1');
        value = value.slice(m ? m[0].length : value.length);
      } else {
        parsed = TOKEN.exec(value)?.[0] ?? '';
        value = value.slice(parsed.length);
      }
      current.params[name.toLowerCase()] = parsed;
      rest = value;
      continue;
    }
    current = { scheme: name, params: {} };
    challenges.push(current);
    rest = after;
    // A token68 credential form right after the scheme (rare in challenges): skip it.
    const token68 = /^[A-Za-z0-9\-._~+/]+=*(?=\s*(,|$))/.exec(rest);
    if (token68 && !/^[^=]+=[^=]/.test(rest)) rest = rest.slice(token68[0].length);
  }
  return challenges;
}

/** The Bearer challenge of a response's headers, if it has one. */
export function bearerOf(header: string | string[] | undefined): Challenge | undefined {
  return parseChallenges(header).find((c) => c.scheme.toLowerCase() === 'bearer');
}

/** Where RFC 9728 §3.1 puts a resource's metadata: the well-known prefix before the endpoint's path, then the root one. */
export function wellKnownUrls(endpoint: URL): { url: URL; suffixed: boolean }[] {
  const path = endpoint.pathname === '/' ? '' : endpoint.pathname.replace(/\/$/, '');
  const at = (p: string) => new URL(`/.well-known/oauth-protected-resource${p}`, endpoint.origin);
  return [...(path ? [{ url: at(path), suffixed: true }] : []), { url: at(''), suffixed: false }];
}

/**
 * Where MCP clients look for an authorization server's metadata, in the order they try (MCP authorization › Authorization
 * Server Metadata Discovery): RFC 8414 with path insertion, OpenID Connect discovery with path insertion, then appended.
 */
export function asMetadataUrls(issuer: URL): { url: URL; kind: 'oauth' | 'openid' }[] {
  const path = issuer.pathname === '/' ? '' : issuer.pathname.replace(/\/$/, '');
  const at = (p: string) => new URL(p, issuer.origin);
  return [
    { url: at(`/.well-known/oauth-authorization-server${path}`), kind: 'oauth' },
    { url: at(`/.well-known/openid-configuration${path}`), kind: 'openid' },
    ...(path ? [{ url: at(`${path}/.well-known/openid-configuration`), kind: 'openid' as const }] : []),
  ];
}

/** Whether a URL names this machine. */
export { isLocal as isLoopback } from '../transport/http-client.js';

/** The scopes a challenge or metadata names: a space-separated `scope`, or the `scopes_supported` array. */
export function scopesOf(value: unknown): string[] {
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value)) return value.filter((s): s is string => typeof s === 'string');
  return [];
}
