import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';

/** What a token the local issuer signs claims; `undefined` leaves a claim out, `kid: 'unknown'` signs with a key it never published. */
export interface Issue {
  aud?: string;
  scope?: string;
  iss?: string;
  /** Seconds from now. */
  exp?: number;
  nbf?: number;
  unknownKey?: boolean;
}

/** Environment variables that tell a server the run starts which issuer to trust. */
export const ISSUER_ENV = 'MCP_CONFORMANCE_ISSUER';
export const JWKS_ENV = 'MCP_CONFORMANCE_JWKS_URL';

const KID = 'mcp-conformance-issuer';
const LIFETIME_S = 300;

/**
 * A small authorization server on loopback (--auth-server): RFC 8414 metadata and a JWKS, and RS256 access tokens the
 * suite asks for (it has no grants: the suite is its only client). The server under test trusts it by its issuer URL.
 */
export class LocalIssuer {
  private constructor(
    private readonly server: http.Server,
    readonly issuer: string,
    private readonly key: CryptoKey,
    private readonly stranger: CryptoKey,
  ) {}

  get jwksUrl(): string {
    return `${this.issuer}/jwks.json`;
  }

  /** Listens on 127.0.0.1 (port 0: a free one). A port in use is the user's to fix. */
  static async start(port = 0): Promise<LocalIssuer> {
    const [{ privateKey, publicKey }, { privateKey: stranger }] = await Promise.all([
      generateKeyPair('RS256'),
      generateKeyPair('RS256'),
    ]);
    const jwk = { ...(await exportJWK(publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
    let issuer = '';
    const server = http.createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const json = (status: number, body: unknown) =>
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
      if (path === '/jwks.json') return json(200, { keys: [jwk] });
      if (path === '/.well-known/oauth-authorization-server' || path === '/.well-known/openid-configuration') {
        return json(200, {
          issuer,
          jwks_uri: `${issuer}/jwks.json`,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code'],
          code_challenge_methods_supported: ['S256'],
        });
      }
      if (path === '/authorize' || path === '/token')
        return json(400, {
          error: 'unsupported_grant_type',
          error_description: 'this issuer only makes the tokens of mcp-conformance',
        });
      json(404, { error: 'not_found' });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    server.unref();
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return new LocalIssuer(server, issuer, privateKey, stranger);
  }

  /** An access token: by default for `aud`, from this issuer, valid for five minutes. */
  async issue(claims: Issue): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const payload = {
      sub: 'mcp-conformance',
      client_id: 'mcp-conformance',
      iat: now,
      nbf: now + (claims.nbf ?? 0),
      exp: now + (claims.exp ?? LIFETIME_S),
      ...(claims.scope !== undefined && { scope: claims.scope }),
      jti: crypto.randomUUID(),
    };
    const jwt = new SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: claims.unknownKey ? 'mcp-conformance-unknown-key' : KID })
      .setIssuer(claims.iss ?? this.issuer);
    if (claims.aud !== undefined) jwt.setAudience(claims.aud);
    return jwt.sign(claims.unknownKey ? this.stranger : this.key);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
