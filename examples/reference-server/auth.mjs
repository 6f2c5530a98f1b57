// The reference HTTP server as an OAuth 2.1 protected resource (`http.mjs --auth`): every request to the endpoint
// needs a bearer token (a JWT) issued by the one authorization server it trusts, for this resource, with the scope
// `mcp`. The issuer comes from `--issuer` or MCP_CONFORMANCE_ISSUER, its keys from `--jwks-url` or
// MCP_CONFORMANCE_JWKS_URL (default: the issuer's /jwks.json); without an issuer it trusts no token at all. Its
// metadata (RFC 9728) is served without a token at the path-suffixed well-known URI.
import { createRemoteJWKSet, jwtVerify } from 'jose';

export const SCOPE = 'mcp';
export const METADATA_PATH = '/.well-known/oauth-protected-resource';
/** Named when no issuer is trusted: a reserved name (RFC 2606) that can issue nothing. */
const NO_ISSUER = 'https://issuer.invalid';

/** `name="value"` params of a challenge; values never hold a quote. */
const challenge = (params) =>
  `Bearer ${Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}="${v}"`)
    .join(', ')}`;

/**
 * Adds authorization to an app of createHttpServer(): `app.auth` holds its parts (test fixtures may replace them), and
 * `app.handle` checks every request to the endpoint first. `auth.at(resource)` names the endpoint's URL once the server
 * listens.
 */
export function protect(app, { issuer, jwksUrl }) {
  const jwks = issuer ? createRemoteJWKSet(new URL(jwksUrl ?? `${issuer.replace(/\/$/, '')}/jwks.json`)) : null;
  let url;
  const auth = {
    resource: '',
    metadataUrl: '',
    scope: SCOPE,

    at(resource) {
      url = new URL(resource);
      auth.resource = resource;
      auth.metadataUrl = `${url.origin}${METADATA_PATH}${url.pathname}`;
    },

    metadata: () => ({
      resource: auth.resource,
      authorization_servers: [issuer ?? NO_ISSUER],
      scopes_supported: [SCOPE],
      bearer_methods_supported: ['header'],
    }),

    /** The WWW-Authenticate value; `error` only when the client sent credentials (RFC 6750 §3). */
    challenge: (error) => challenge({ error, resource_metadata: auth.metadataUrl, scope: auth.scope }),

    refuse(res, status, error, description) {
      res.writeHead(status, { 'Content-Type': 'application/json', 'WWW-Authenticate': auth.challenge(error) });
      res.end(JSON.stringify({ error: error ?? 'unauthorized', error_description: description }));
    },

    /** The token's claims when it is valid for this resource; throws otherwise. `loosen` is for test fixtures. */
    async verify(token, loosen = {}) {
      if (!jwks) throw new Error('no issuer is trusted');
      const { payload } = await jwtVerify(token, jwks, {
        issuer,
        audience: auth.resource,
        algorithms: ['RS256', 'ES256'],
        requiredClaims: ['exp'],
        ...loosen,
      });
      return payload;
    },

    /** Whether the request may go on; otherwise it has been answered (401, 400 or 403). */
    async authorize(req, res) {
      const header = req.headers.authorization;
      if (header === undefined) return auth.refuse(res, 401, undefined, 'a bearer token is required');
      const [scheme, token, ...rest] = header.trim().split(/\s+/);
      // Another scheme sends no Bearer credentials: the challenge without an error code.
      if (scheme.toLowerCase() !== 'bearer') return auth.refuse(res, 401, undefined, 'a bearer token is required');
      if (!token || rest.length > 0) return auth.refuse(res, 400, 'invalid_request', 'malformed Authorization header');
      let claims;
      try {
        claims = await auth.verify(token);
      } catch {
        return auth.refuse(res, 401, 'invalid_token', 'the token is invalid, expired, or not for this resource');
      }
      const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ') : [];
      if (!scopes.includes(auth.scope))
        return auth.refuse(res, 403, 'insufficient_scope', `the token lacks the scope ${auth.scope}`);
      return true;
    },
  };
  app.auth = auth;
  const handle = app.handle.bind(app);
  app.handle = async (req, res) => {
    const path = new URL(req.url, 'http://localhost').pathname;
    if (path === `${METADATA_PATH}${url.pathname}` && req.method === 'GET') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(auth.metadata()));
      return;
    }
    if (path === url.pathname && !(await auth.authorize(req, res))) return;
    return handle(req, res);
  };
  return app;
}
