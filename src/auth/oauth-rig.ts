// What an authorization scenario serves a client on loopback, mounted on the client run's test server: a gate in front
// of its MCP endpoint (401 / 403 with a Bearer challenge) and the resource metadata (RFC 9728) as routes there; and an
// authorization server (RFC 8414 / OpenID metadata, an authorization endpoint that consents at once, a token endpoint,
// dynamic registration, client ID metadata documents) on a listener of its own, or on the test server's origin where
// the scenario puts it there. Every exchange with either is recorded for the checks.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { isObject } from '../json.js';
import type { Answer, HttpExchange as ServerExchange, TestServer } from '../transport/test-server/http.js';
import { isLoopback } from './challenge.js';
import { DPOP_ALGS, type Proof, readProof } from './dpop.js';
import {
  type Assertion,
  JWT_BEARER,
  JWT_CLIENT_ID,
  JWT_GRANT,
  idpJwt,
  idpKeys,
  jwtKeys,
  readAssertion,
} from './jwt-assertion.js';
import { ExchangeLog, type HttpExchange, type Role } from './exchanges.js';
import { type AuthScenario, CLIENT_CREDENTIALS, ENTERPRISE, PRE_REGISTERED, WIF_CLIENT_ID } from './scenarios.js';

/** RFC 8693 token exchange, and the token types enterprise-managed authorization exchanges (ID token → ID-JAG). */
export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
export const ID_JAG_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';

/** A client the authorization server knows: registered, pre-registered or by its metadata document. */
export interface KnownClient {
  client_id: string;
  client_secret?: string;
  token_endpoint_auth_method: string;
  redirect_uris: string[];
  via: 'dcr' | 'pre-registered' | 'cimd';
  /** The authorization server (origin) it registered with; pre-registered clients have none. */
  at?: string;
  /** For a metadata document: what fetching it gave (the document, or why not). */
  document?: { status?: number; body?: unknown; error?: string };
}

/** A code the authorization endpoint issued, and what it was issued on. */
interface Grant {
  client_id: string;
  redirect_uri: string;
  code_challenge?: string;
  code_challenge_method?: string;
  scope?: string;
  resource?: string;
  /** The DPoP key thumbprint the authorization request bound the code to (RFC 9449 §10). */
  dpop_jkt?: string;
}

/** A token the token endpoint issued. */
export interface Issued {
  kind: 'access' | 'refresh';
  client_id: string;
  scope: string;
  resource?: string;
  /** Access tokens of an offline-access scenario stop working after their first use; a refresh token works once. */
  uses: number;
  /** The authorization server (origin) that issued it. */
  at: string;
  /** The thumbprint of the DPoP key it is bound to (RFC 9449 §6), if it is. */
  jkt?: string;
}

/** The BROWSER command an authorization run sets: fetches the URL and follows redirects to the client's callback. */
export const BROWSER_COMMAND = fileURLToPath(new URL('./browser.js', import.meta.url));

/** Where a client may look for the resource metadata of `/mcp` (RFC 9728 §3.1): both are routed, to see the order. */
const PRM_SUFFIXED = '/.well-known/oauth-protected-resource/mcp';
const PRM_ROOT = '/.well-known/oauth-protected-resource';
/** The audience of the workload JWT of auth/wif-jwt-bearer that names another authorization server. */
export const WRONG_AUDIENCE = 'https://wrong-audience.mcp-conformance.invalid';
/**
 * The lifetime a DPoP-bound access token announces (expires_in), short so a client that keeps its session refreshes
 * with the refresh token it also gets (RFC 9449 §5: a proof by the same key), as the official scenario has it. The MCP
 * endpoint does not refuse a token past it: a client that never refreshes is not asked to.
 */
export const DPOP_TOKEN_TTL_S = 2;

/**
 * The scopes the authorization server of auth/wif-jwt-bearer refuses the workload (the official scenario's: its
 * clients ask for one to be refused): unauthorized_client and invalid_scope (RFC 6749 §5.2). What the client does
 * after a refusal is judged (client-side/auth/jwt-bearer-refusal).
 */
export const WIF_REFUSED_SCOPES: Record<string, string> = {
  'wif.trigger-unauthorized': 'unauthorized_client',
  'wif.rejected': 'invalid_scope',
};
/** Authorization requests in a loop of 403s after which the rig stops answering MCP (the client is looping). */
export const LOOP_LIMIT = 10;

const random = (prefix: string) => `${prefix}-${randomBytes(18).toString('base64url')}`;
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

export class OAuthRig {
  readonly log = new ExchangeLog();
  readonly clients = new Map<string, KnownClient>();
  readonly tokens = new Map<string, Issued>();
  private readonly grants = new Map<string, Grant>();
  private readonly servers: http.Server[] = [];
  /** The test server the protected endpoint is mounted on. */
  private server?: TestServer;
  /** The authorization server's own origin (none when it is on the test server's). */
  private asOwn = '';
  /** The authorization-server-migration scenario's second authorization server, and whether the switch happened. */
  private asNew = '';
  migrated = false;
  /** MCP requests the gate let through, with the test server's record of them (their status comes later). */
  private readonly passed: { entry: HttpExchange; exchange?: ServerExchange }[] = [];
  /** Set when the client keeps authorizing after 403s (see LOOP_LIMIT). */
  looping = false;
  /** Called once when the client is found looping: the run stops it. */
  onLoop?: () => void;
  /** The offline-access scenario's first access token has expired. */
  private expiredOne = false;
  /** The DPoP nonces of the authorization server and the MCP server (RFC 9449 §8, §9), and whether each challenged. */
  readonly nonces = { authorization: random('nonce'), resource: random('nonce') };
  private readonly challenged = { authorization: false, resource: false };
  /** The identity provider's origin (enterprise-managed authorization), and the ID-JAGs it issued. */
  private idpOrigin = '';
  readonly jags = new Set<string>();
  /** What the scenario adds to MCP_CONFORMANCE_CONTEXT once its servers listen (the JWTs name their origins). */
  readonly context: Record<string, string> = {};

  private constructor(readonly scenario: AuthScenario) {
    this.log.secret(PRE_REGISTERED.client_secret);
    this.log.secret(CLIENT_CREDENTIALS.client_secret);
    if (scenario.preRegistered)
      this.clients.set(PRE_REGISTERED.client_id, {
        ...PRE_REGISTERED,
        token_endpoint_auth_method: 'client_secret_basic',
        redirect_uris: [],
        via: 'pre-registered',
      });
    if (scenario.jwt) {
      this.log.secret(jwtKeys().privatePem);
      this.clients.set(JWT_CLIENT_ID, {
        client_id: JWT_CLIENT_ID,
        token_endpoint_auth_method: 'private_key_jwt',
        redirect_uris: [],
        via: 'pre-registered',
      });
    } else if (scenario.grant === 'client_credentials')
      this.clients.set(CLIENT_CREDENTIALS.client_id, {
        ...CLIENT_CREDENTIALS,
        token_endpoint_auth_method: 'client_secret_basic',
        redirect_uris: [],
        via: 'pre-registered',
      });
    else if (scenario.enterprise) {
      this.log.secret(ENTERPRISE.client_secret);
      this.clients.set(ENTERPRISE.client_id, {
        client_id: ENTERPRISE.client_id,
        client_secret: ENTERPRISE.client_secret,
        token_endpoint_auth_method: 'client_secret_basic',
        redirect_uris: [],
        via: 'pre-registered',
      });
    } else if (scenario.grant === 'jwt-bearer')
      this.clients.set(WIF_CLIENT_ID, {
        client_id: WIF_CLIENT_ID,
        token_endpoint_auth_method: 'none',
        redirect_uris: [],
        via: 'pre-registered',
      });
  }

  /** Starts the scenario's authorization server on 127.0.0.1 (a free port) unless it is on the test server's origin. */
  static async start(scenario: AuthScenario): Promise<OAuthRig> {
    const rig = new OAuthRig(scenario);
    if (!scenario.asOnResource) rig.asOwn = await rig.listen();
    if (scenario.migrate) rig.asNew = await rig.listen();
    // The JWTs the context hands the client: an ID token of the identity provider (to exchange there for an ID-JAG),
    // or a workload's JWT for the authorization server (the jwt-bearer grant itself).
    if (scenario.enterprise) {
      rig.idpOrigin = await rig.listen('identity');
      const idToken = idpJwt({
        iss: rig.idpOrigin,
        sub: 'user@mcp-conformance.invalid',
        aud: ENTERPRISE.idp_client_id,
        email: 'user@mcp-conformance.invalid',
      });
      Object.assign(rig.context, {
        idp_id_token: idToken,
        idp_issuer: rig.idpOrigin,
        idp_token_endpoint: `${rig.idpOrigin}/token`,
      });
    } else if (scenario.grant === 'jwt-bearer') {
      // The official context's three workload JWTs: the one to present, and two the authorization server refuses.
      const workload = {
        iss: 'https://workload-identity.mcp-conformance.invalid',
        sub: WIF_CLIENT_ID,
        aud: rig.issuer,
      };
      const now = Math.floor(Date.now() / 1000);
      Object.assign(rig.context, {
        valid_jwt: idpJwt(workload),
        wrong_audience_jwt: idpJwt({ ...workload, aud: WRONG_AUDIENCE }),
        expired_jwt: idpJwt({ ...workload, iat: now - 600, exp: now - 60 }),
      });
    }
    for (const v of Object.values(rig.context)) if (/^eyJ/.test(v)) rig.log.secret(v);
    return rig;
  }

  /** The identity provider's origin (enterprise-managed authorization only). */
  get identityOrigin(): string {
    return this.idpOrigin;
  }

  /** Mounts the protected resource on a test server before it listens: the metadata routes and the gate. */
  mount(server: TestServer): this {
    this.server = server;
    const sc = this.scenario;
    const on = (method: string, path: string) =>
      server.route(method, path, (req, body, res) => this.handle('resource', req, body, res));
    for (const p of new Set([sc.prm, PRM_SUFFIXED, PRM_ROOT])) if (p) on('GET', p);
    if (sc.asOnResource) {
      for (const p of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) on('GET', p);
      on('GET', '/authorize');
      on('POST', '/token');
      on('POST', '/register');
    }
    server.gate((req, body) => this.gate(req, body));
    return this;
  }

  /** The MCP server's origin (the test server's), and the authorization server's. */
  get resourceOrigin(): string {
    return this.server?.url ? this.server.origin : '';
  }

  get asOrigin(): string {
    return this.scenario.asOnResource ? this.resourceOrigin : this.migrated ? this.asNew : this.asOwn;
  }

  /** The origins of the authorization servers before and after a migration. */
  get migration(): { from: string; to: string } | undefined {
    return this.scenario.migrate ? { from: this.asOwn, to: this.asNew } : undefined;
  }

  /** The URL the client connects to. */
  get serverUrl(): string {
    return `${this.resourceOrigin}/mcp`;
  }

  /** The resource the resource metadata names: the server's URL, or its origin where the scenario says so. */
  get prmResource(): string {
    return this.scenario.originResource ? this.resourceOrigin : this.serverUrl;
  }

  get issuer(): string {
    return this.issuerAt(this.asOrigin);
  }

  private issuerAt(origin: string): string {
    return `${origin}${this.scenario.issuerPath}`;
  }

  get prmUrl(): string | undefined {
    return this.scenario.prm === undefined ? undefined : `${this.resourceOrigin}${this.scenario.prm}`;
  }

  /** The well-known URL the authorization server's metadata is served at, if any. */
  get asMetadataUrl(): string | undefined {
    return this.metadataUrlAt(this.asOrigin);
  }

  /** Where the metadata of the authorization server at `origin` is served. */
  metadataUrlAt(origin: string): string | undefined {
    const p = this.scenario.issuerPath;
    switch (this.scenario.asMetadata) {
      case 'oauth':
        return `${origin}/.well-known/oauth-authorization-server${p}`;
      case 'openid':
        return `${origin}/.well-known/openid-configuration${p}`;
      case 'openid-appended':
        return `${origin}${p}/.well-known/openid-configuration`;
      default:
        return undefined;
    }
  }

  /** Stops the authorization server; the statuses of the MCP requests let through are final by then. */
  async close(): Promise<void> {
    for (const p of this.passed) p.entry.status = p.exchange?.status ?? 0;
    await Promise.all(
      this.servers.map(
        (s) =>
          new Promise<void>((resolve) => {
            s.close(() => resolve());
            s.closeAllConnections();
          }),
      ),
    );
  }

  private async listen(role: Role = 'authorization'): Promise<string> {
    let origin = '';
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void this.handle(role, req, Buffer.concat(chunks).toString('utf8'), res, origin).catch(() => {
          if (!res.headersSent) res.writeHead(500).end();
        });
      });
    });
    this.servers.push(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    server.unref();
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return origin;
  }

  private async handle(
    role: Role,
    req: http.IncomingMessage,
    text: string,
    res: http.ServerResponse,
    asOrigin = this.resourceOrigin,
  ): Promise<void> {
    const origin = role === 'resource' ? this.resourceOrigin : asOrigin;
    const url = new URL(req.url ?? '/', origin);
    const body = parseBody(req.headers['content-type'], text);
    const answer: Record<string, string> = {};
    let status = 404;
    let reply: unknown;
    const send = (code: number, json?: unknown, headers: Record<string, string> = {}) => {
      status = code;
      reply = json;
      for (const [k, v] of Object.entries(headers))
        if (/^(www-authenticate|location|dpop-nonce)$/i.test(k)) answer[k.toLowerCase()] = v;
      res.writeHead(code, { ...(json !== undefined && { 'Content-Type': 'application/json' }), ...headers });
      res.end(json === undefined ? undefined : JSON.stringify(json));
    };
    this.noteSecrets(req, url, body);
    const proof = readProof(req.headers.dpop, { method: req.method ?? 'GET', url: url.toString() });
    const routed =
      (role === 'resource' && (await this.resource(req, url, body, send))) ||
      (role === 'identity' && this.identity(req, url, body, send)) ||
      (role !== 'identity' &&
        (role === 'authorization' || this.scenario.asOnResource) &&
        (await this.authorization(req, url, body, send, origin, proof)));
    if (!routed) send(404, { error: 'not_found' });
    this.log.add({
      role,
      method: req.method ?? 'GET',
      url: url.toString(),
      status,
      headers: req.headers,
      ...(body !== undefined && { body }),
      answer,
      ...(reply !== undefined && { reply }),
      ...(proof && { dpop: proof }),
    });
  }

  /** Secrets the client sent: its credentials, codes, verifiers, tokens. */
  private noteSecrets(req: http.IncomingMessage, url: URL, body: unknown) {
    const auth = req.headers.authorization;
    if (auth) this.log.secret(auth.replace(/^\S+\s+/, ''));
    for (const v of url.searchParams.values()) if (this.tokens.has(v) || this.grants.has(v)) this.log.secret(v);
    if (isObject(body))
      for (const k of ['client_secret', 'code_verifier', 'code', 'refresh_token', 'assertion', 'client_assertion'])
        if (typeof body[k] === 'string') this.log.secret(body[k] as string);
  }

  private challenge(extra: Record<string, string> = {}): string {
    const params: Record<string, string> = { ...extra };
    if (this.scenario.prmInChallenge && this.prmUrl) params.resource_metadata = this.prmUrl;
    if (this.scenario.challengeScope && !('scope' in params)) params.scope = this.scenario.challengeScope;
    const list = Object.entries(params).map(([k, v]) => `${k}="${v}"`);
    return list.length ? `Bearer ${list.join(', ')}` : 'Bearer';
  }

  /** The resource metadata (the MCP endpoint itself is behind the gate). */
  private async resource(req: http.IncomingMessage, url: URL, _body: unknown, send: Send): Promise<boolean> {
    const sc = this.scenario;
    if (url.pathname !== sc.prm || req.method !== 'GET') return false;
    send(200, {
      resource: sc.resourceMismatch ? 'https://mcp.elsewhere.example/mcp' : this.prmResource,
      authorization_servers: [this.issuer],
      ...(sc.scopesSupported && { scopes_supported: sc.scopesSupported }),
      bearer_methods_supported: ['header'],
      ...(sc.dpop && { dpop_signing_alg_values_supported: DPOP_ALGS, dpop_bound_access_tokens_required: true }),
    });
    return true;
  }

  /** In front of the MCP endpoint: an issued access token passes; without one 401, without the scope a call needs 403. */
  private gate(req: http.IncomingMessage, text: string): Answer | undefined {
    const url = new URL(req.url ?? '/', this.resourceOrigin);
    const body = parseBody(req.headers['content-type'], text);
    this.noteSecrets(req, url, body);
    const token = presented(req);
    const proof = readProof(req.headers.dpop, { method: req.method ?? 'GET', url: url.toString(), token });
    const refused = this.refusal(body, token, proof);
    const nonce: Record<string, string> = refused?.nonce ? { 'dpop-nonce': refused.nonce } : {};
    const entry = this.log.add({
      role: 'resource',
      method: req.method ?? 'GET',
      url: url.toString(),
      status: refused?.status ?? 0,
      headers: req.headers,
      ...(body !== undefined && { body }),
      answer: refused ? { 'www-authenticate': refused.challenge, ...nonce } : {},
      ...(refused && { reply: refused.json }),
      ...(proof && { dpop: proof }),
    });
    if (this.looping) this.onLoop?.();
    if (!refused) {
      this.passed.push({ entry, exchange: this.server?.exchangeOf(req) });
      return undefined;
    }
    return {
      status: refused.status,
      headers: { 'content-type': 'application/json', 'www-authenticate': refused.challenge, ...nonce },
      body: JSON.stringify(refused.json),
    };
  }

  /** Why the gate refuses a request, if it does. */
  private refusal(
    body: unknown,
    token: string | undefined,
    proof: Proof | undefined,
  ): { status: number; json: unknown; challenge: string; nonce?: string } | undefined {
    const sc = this.scenario;
    const issued = token === undefined ? undefined : this.tokens.get(token);
    if (issued?.kind !== 'access')
      return {
        status: 401,
        json: { error: 'unauthorized' },
        challenge: this.challenge(token ? { error: 'invalid_token' } : {}),
      };
    if (
      sc.offlineAccess === 'supported' &&
      issued.uses >= 1 &&
      !this.expiredOne &&
      issued.scope.split(' ').includes('offline_access')
    ) {
      this.expiredOne = true;
      return {
        status: 401,
        json: { error: 'invalid_token' },
        challenge: this.challenge({ error: 'invalid_token', error_description: 'expired' }),
      };
    }
    // Migration: the first authorized request past initialization (not initialize or, on 2026-07-28, server/discover;
    // not a notification) switches the resource metadata to the second authorization server; from then on the first
    // one's tokens are refused there.
    const ordinary = (Array.isArray(body) ? body : [body]).some(
      (m) =>
        isObject(m) &&
        typeof m.method === 'string' &&
        m.method !== 'initialize' &&
        m.method !== 'server/discover' &&
        !m.method.startsWith('notifications/'),
    );
    if (sc.migrate && ordinary && !this.migrated) this.migrated = true;
    else if (sc.migrate && ordinary && issued.at !== this.asNew)
      return {
        status: 401,
        json: { error: 'invalid_token' },
        challenge: this.challenge({
          error: 'invalid_token',
          error_description: 'the authorization server has changed',
        }),
      };
    // The MCP server asks for its nonce once (RFC 9449 §9); what the client sends after is judged
    // (client-side/auth/dpop-nonce), not refused again: one fault, one finding.
    if (sc.dpop === 'nonce' && issued.jkt && proof && !this.challenged.resource) {
      this.challenged.resource = true;
      if (proof.claims.nonce !== this.nonces.resource)
        return {
          status: 401,
          json: { error: 'use_dpop_nonce' },
          challenge:
            'DPoP error="use_dpop_nonce", error_description="the MCP server requires a nonce in the DPoP proof"',
          nonce: this.nonces.resource,
        };
    }
    issued.uses++;
    const messages = Array.isArray(body) ? body : [body];
    const call = messages.some((m) => isObject(m) && m.method === 'tools/call');
    const granted = issued.scope.split(' ').filter(Boolean);
    // Retry limit: every authorized request past initialization is refused, naming the scope of the 401 again (the
    // official scenario's shape). Step-up: tools/call needs one more scope, and the challenge names that one alone
    // (the 2026-07-28 revision: scopes for the current operation), so whether the client keeps what it had shows.
    const needed = sc.alwaysForbidden
      ? ordinary && sc.challengeScope
      : call && sc.stepUp && !granted.includes(sc.stepUp) && sc.stepUp;
    if (needed) {
      if (this.authorizations() > LOOP_LIMIT) this.looping = true;
      return {
        status: 403,
        json: { error: 'insufficient_scope' },
        challenge: this.challenge({ error: 'insufficient_scope', scope: needed }),
      };
    }
    return undefined;
  }

  /** Authorization requests made so far. */
  authorizations(): number {
    return this.log.exchanges.filter(
      (e) => e.role === 'authorization' && new URL(e.url).pathname.endsWith('/authorize'),
    ).length;
  }

  private asMetadata(origin: string): Record<string, unknown> {
    const sc = this.scenario;
    const issuer = this.issuerAt(origin);
    const at = (p: string) => `${issuer}${p}`;
    return {
      issuer: sc.issuerMismatch ? `${origin}/another-issuer` : issuer,
      authorization_endpoint: at('/authorize'),
      token_endpoint: at('/token'),
      ...(sc.dcr && { registration_endpoint: at('/register') }),
      response_types_supported: ['code'],
      grant_types_supported: [
        sc.grant === 'jwt-bearer' ? JWT_GRANT : (sc.grant ?? 'authorization_code'),
        ...(sc.offlineAccess === 'unsupported' ? [] : ['refresh_token']),
      ],
      ...(!sc.noPkce && { code_challenge_methods_supported: ['S256'] }),
      token_endpoint_auth_methods_supported: sc.authMethods,
      ...(sc.asScopes && { scopes_supported: sc.asScopes }),
      ...(sc.cimd && { client_id_metadata_document_supported: true }),
      ...(sc.jwt && { token_endpoint_auth_signing_alg_values_supported: ['ES256'] }),
      ...(sc.dpop && { dpop_signing_alg_values_supported: DPOP_ALGS }),
      ...((sc.iss === 'sent' || sc.iss === 'missing' || sc.iss === 'wrong' || sc.iss === 'normalized') && {
        authorization_response_iss_parameter_supported: true,
      }),
    };
  }

  /** The authorization server: metadata, registration, authorization and token endpoints. */
  private async authorization(
    req: http.IncomingMessage,
    url: URL,
    body: unknown,
    send: Send,
    origin: string,
    proof?: Proof,
  ): Promise<boolean> {
    const sc = this.scenario;
    if (req.method === 'GET' && url.toString() === this.metadataUrlAt(origin)) {
      // OpenID Provider Metadata has fields of its own that are REQUIRED (OpenID Connect Discovery 1.0 §3).
      const openid = sc.asMetadata !== 'oauth' && {
        jwks_uri: `${this.issuerAt(origin)}/jwks.json`,
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      };
      send(200, { ...this.asMetadata(origin), ...openid });
      return true;
    }
    const p = url.pathname.slice(sc.issuerPath.length);
    if (!url.pathname.startsWith(sc.issuerPath)) return false;
    if (p === '/register' && sc.dcr && req.method === 'POST') return this.register(body, send, origin);
    if (p === '/authorize' && req.method === 'GET') return this.authorize(url, send, origin);
    if (p === '/token' && req.method === 'POST') return this.token(req, body, send, origin, proof);
    return false;
  }

  private register(body: unknown, send: Send, at: string): boolean {
    const meta = isObject(body) ? body : {};
    const asked = typeof meta.token_endpoint_auth_method === 'string' ? meta.token_endpoint_auth_method : undefined;
    // Without a method (or with one not offered), RFC 7591 §2 would mean client_secret_basic; but MCP clients are public
    // native clients, and the official suite's server registers them as `none`. So does ours wherever it offers `none`;
    // the scenarios about token-endpoint authentication (which do not) keep imposing theirs.
    const offered = this.scenario.authMethods;
    const method =
      asked && offered.includes(asked) ? asked : offered.includes('none') ? 'none' : (offered[0] ?? 'none');
    const client: KnownClient = {
      client_id: random('client'),
      token_endpoint_auth_method: method,
      redirect_uris: Array.isArray(meta.redirect_uris) ? meta.redirect_uris.filter((u) => typeof u === 'string') : [],
      via: 'dcr',
      at,
      ...(method !== 'none' && { client_secret: random('secret') }),
    };
    this.log.secret(client.client_secret);
    this.clients.set(client.client_id, client);
    send(201, {
      ...meta,
      ...client,
      via: undefined,
      at: undefined,
      client_id_issued_at: Math.floor(Date.now() / 1000),
    });
    return true;
  }

  /** A client_id that is a URL: its metadata document, fetched on loopback only. */
  private async byDocument(clientId: string): Promise<KnownClient | undefined> {
    let url: URL;
    try {
      url = new URL(clientId);
    } catch {
      return undefined;
    }
    const client: KnownClient = {
      client_id: clientId,
      token_endpoint_auth_method: 'none',
      redirect_uris: [],
      via: 'cimd',
    };
    if (!isLoopback(url)) client.document = { error: 'not on loopback: the suite fetches documents there only' };
    else {
      try {
        const r = await fetch(url, { signal: AbortSignal.timeout(5000), redirect: 'error' });
        const text = await r.text();
        let doc: unknown;
        try {
          doc = JSON.parse(text);
        } catch {
          doc = undefined;
        }
        client.document = { status: r.status, body: doc ?? text.slice(0, 200) };
        if (isObject(doc)) {
          if (Array.isArray(doc.redirect_uris))
            client.redirect_uris = doc.redirect_uris.filter((u) => typeof u === 'string');
          if (typeof doc.token_endpoint_auth_method === 'string')
            client.token_endpoint_auth_method = doc.token_endpoint_auth_method;
        }
      } catch (e) {
        client.document = { error: e instanceof Error ? e.message : String(e) };
      }
    }
    this.clients.set(clientId, client);
    return client;
  }

  /** Consent at once: a redirect to the client's redirect_uri with a code, its state and, where the scenario says, iss. */
  private async authorize(url: URL, send: Send, at: string): Promise<boolean> {
    const q = url.searchParams;
    const clientId = q.get('client_id') ?? '';
    const client =
      this.clients.get(clientId) ??
      (this.scenario.cimd && /^https?:/.test(clientId) ? await this.byDocument(clientId) : undefined);
    const redirect = q.get('redirect_uri') ?? client?.redirect_uris[0];
    if (!client || !redirect) {
      send(400, { error: 'invalid_request', error_description: client ? 'no redirect_uri' : 'unknown client_id' });
      return true;
    }
    const code = random('code');
    this.log.secret(code);
    this.grants.set(code, {
      client_id: clientId,
      redirect_uri: redirect,
      ...(q.get('code_challenge') !== null && { code_challenge: q.get('code_challenge') as string }),
      ...(q.get('code_challenge_method') !== null && {
        code_challenge_method: q.get('code_challenge_method') as string,
      }),
      ...(q.get('scope') !== null && { scope: q.get('scope') as string }),
      ...(q.get('resource') !== null && { resource: q.get('resource') as string }),
      ...(q.get('dpop_jkt') !== null && { dpop_jkt: q.get('dpop_jkt') as string }),
    });
    const to = new URL(redirect);
    to.searchParams.set('code', code);
    const state = q.get('state');
    if (state !== null) to.searchParams.set('state', this.scenario.wrongState ? `${state}-not-yours` : state);
    const iss = issFor(this.scenario, this.issuerAt(at));
    if (iss !== undefined) to.searchParams.set('iss', iss);
    send(302, undefined, { Location: to.toString() });
    return true;
  }

  /** Who the token request authenticates as, by which method, and whether its secret is right. */
  private clientAuth(
    req: http.IncomingMessage,
    form: Record<string, unknown>,
  ): { method: string; client_id?: string; secret?: string; assertion?: Assertion } {
    if (form.client_assertion_type === JWT_BEARER && typeof form.client_assertion === 'string') {
      const assertion = readAssertion(form.client_assertion);
      const iss = assertion?.claims.iss;
      const id = typeof form.client_id === 'string' ? form.client_id : typeof iss === 'string' ? iss : undefined;
      return { method: 'private_key_jwt', client_id: id, ...(assertion && { assertion }) };
    }
    const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (basic) {
      const [id, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':').map(decodeURIComponent);
      return { method: 'client_secret_basic', client_id: id, secret };
    }
    const id = typeof form.client_id === 'string' ? form.client_id : undefined;
    if (typeof form.client_secret === 'string')
      return { method: 'client_secret_post', client_id: id, secret: form.client_secret };
    return { method: 'none', client_id: id, secret: undefined };
  }

  private token(req: http.IncomingMessage, body: unknown, send: Send, at: string, proof?: Proof): boolean {
    const form = isObject(body) ? body : {};
    if (this.scenario.grant === 'jwt-bearer') return this.assertionGrant(req, form, send, at);
    const auth = this.clientAuth(req, form);
    const client = auth.client_id === undefined ? undefined : this.clients.get(auth.client_id);
    const bad = (error: string, description: string, code = 400) =>
      send(code, { error, error_description: description });
    if (!client) return (bad('invalid_client', 'unknown client', 401), true);
    if (client.client_secret !== undefined && auth.secret !== client.client_secret)
      return (bad('invalid_client', 'wrong client secret', 401), true);
    // An assertion not signed by the client's key authenticates nobody; its claims are judged
    // (client-side/auth/client-assertion), not refused.
    if (
      client.token_endpoint_auth_method === 'private_key_jwt' &&
      auth.method === 'private_key_jwt' &&
      !auth.assertion?.signed
    )
      return (bad('invalid_client', 'the client assertion is not signed by the registered key', 401), true);
    // Another method than the registered one is judged (client-side/auth/token-endpoint-auth), not refused: one finding.
    // The authorization server asks for its DPoP nonce once, before the code is spent (RFC 9449 §8); what the client
    // sends after is judged (client-side/auth/dpop-nonce), not refused again.
    if (this.scenario.dpop === 'nonce' && proof && !this.challenged.authorization) {
      this.challenged.authorization = true;
      if (proof.claims.nonce !== this.nonces.authorization)
        return (
          send(
            400,
            {
              error: 'use_dpop_nonce',
              error_description: 'the authorization server requires a nonce in the DPoP proof',
            },
            { 'DPoP-Nonce': this.nonces.authorization },
          ),
          true
        );
    }
    // A proof whose signature verifies binds the token to its key; a bad proof otherwise is judged
    // (client-side/auth/dpop-token-request), and without one the token is a bearer token.
    const jkt = this.scenario.dpop ? proof?.jkt : undefined;
    const issue = (scope: string, resource: string | undefined, bound = jkt) =>
      this.issue(send, { client_id: client.client_id, scope, resource, at, ...(bound && { jkt: bound }) });
    const resource = typeof form.resource === 'string' ? form.resource : undefined;
    switch (form.grant_type) {
      case 'authorization_code': {
        const grant = typeof form.code === 'string' ? this.grants.get(form.code) : undefined;
        if (!grant || grant.client_id !== client.client_id) return (bad('invalid_grant', 'unknown code'), true);
        this.grants.delete(form.code as string);
        if (grant.code_challenge !== undefined) {
          const verifier = typeof form.code_verifier === 'string' ? form.code_verifier : '';
          const ok =
            grant.code_challenge_method === 'S256'
              ? s256(verifier) === grant.code_challenge
              : verifier === grant.code_challenge;
          if (!ok) return (bad('invalid_grant', 'code_verifier does not match'), true);
        }
        // RFC 9449 §10: a code bound by dpop_jkt is redeemed by a proof of that key only, else the authorization server
        // MUST reject it (judged by client-side/auth/dpop-jkt-match). Without a proof it is dpop-token-request's.
        if (grant.dpop_jkt !== undefined && jkt !== undefined && jkt !== grant.dpop_jkt)
          return (bad('invalid_grant', "the DPoP proof's key is not the dpop_jkt of the authorization request"), true);
        issue(grant.scope ?? '', resource ?? grant.resource);
        return true;
      }
      case 'refresh_token': {
        const old = typeof form.refresh_token === 'string' ? this.tokens.get(form.refresh_token) : undefined;
        if (old?.kind !== 'refresh' || old.uses > 0) return (bad('invalid_grant', 'unknown refresh token'), true);
        // Spent, and kept: client-side/auth/dpop-refresh-proof reads the key it was bound to. The new token keeps that
        // binding whatever proof came (judged there, not refused: one fault, one finding).
        old.uses++;
        issue(old.scope, resource ?? old.resource, old.jkt ?? jkt);
        return true;
      }
      case 'client_credentials':
        if (this.scenario.grant !== 'client_credentials') return (bad('unsupported_grant_type', 'not offered'), true);
        issue(typeof form.scope === 'string' ? form.scope : '', resource);
        return true;
      default:
        return (bad('unsupported_grant_type', String(form.grant_type)), true);
    }
  }

  /** An access token (and, where offline access is granted, a refresh token) for a client, answered as the token response. */
  private issue(
    send: Send,
    grant: { client_id: string; scope: string; resource?: string; at: string; jkt?: string },
  ): void {
    const { client_id, scope, resource, at, jkt } = grant;
    const access = random('at');
    this.log.secret(access);
    this.tokens.set(access, { kind: 'access', client_id, scope, resource, uses: 0, at, ...(jkt && { jkt }) });
    // A DPoP-bound grant gets a refresh token bound to the same key (RFC 9449 §5), offline_access or not.
    const refreshable =
      (this.scenario.offlineAccess === 'supported' && scope.split(' ').includes('offline_access')) ||
      (this.scenario.dpop !== undefined && jkt !== undefined);
    const refresh = refreshable ? random('rt') : undefined;
    if (refresh) {
      this.log.secret(refresh);
      this.tokens.set(refresh, { kind: 'refresh', client_id, scope, resource, uses: 0, at, ...(jkt && { jkt }) });
    }
    send(200, {
      access_token: access,
      token_type: jkt ? 'DPoP' : 'Bearer',
      expires_in: jkt ? DPOP_TOKEN_TTL_S : 3600,
      ...(scope && { scope }),
      ...(refresh && { refresh_token: refresh }),
    });
  }

  /**
   * The jwt-bearer grant (RFC 7523 §2.1): an assertion the identity provider signed (the workload's JWT, or an ID-JAG)
   * gets a token. Where it came (assertion or client_assertion) and under which grant_type is judged
   * (client-side/auth/jwt-bearer-grant), not refused; no assertion at all is invalid_request (RFC 6749 §5.2), and a
   * workload asking for a scope of WIF_REFUSED_SCOPES is refused; the enterprise client authenticates with its secret.
   */
  private assertionGrant(req: http.IncomingMessage, form: Record<string, unknown>, send: Send, at: string): boolean {
    const bad = (error: string, description: string, code = 400) => (
      send(code, { error, error_description: description }), true
    );
    const given = [form.assertion, form.client_assertion].find((v): v is string => typeof v === 'string');
    if (given === undefined) return bad('invalid_request', 'no assertion parameter');
    const assertion = readAssertion(given, idpKeys().publicKey);
    if (!assertion?.signed) return bad('invalid_grant', 'no assertion signed by the identity provider');
    // A workload JWT for another audience, or expired, is refused as a real authorization server would (RFC 7523 §3);
    // presenting it is judged (client-side/auth/workload-jwt). An ID-JAG's audience is id-jag-exchange's, not refused.
    const problem = this.scenario.enterprise ? undefined : workloadJwtProblems(assertion.claims, this.issuer)[0];
    if (problem) return bad('invalid_grant', problem);
    const scope = typeof form.scope === 'string' ? form.scope : '';
    const refused = this.scenario.enterprise ? undefined : scope.split(' ').find((s) => s in WIF_REFUSED_SCOPES);
    if (refused) return bad(WIF_REFUSED_SCOPES[refused] as string, `scope ${refused} is not granted to this workload`);
    let clientId = WIF_CLIENT_ID;
    if (this.scenario.enterprise) {
      const auth = this.clientAuth(req, form);
      const client = auth.client_id === undefined ? undefined : this.clients.get(auth.client_id);
      if (!client || auth.secret !== client.client_secret)
        return bad('invalid_client', 'unknown client or wrong secret', 401);
      clientId = client.client_id;
    }
    const resource = typeof form.resource === 'string' ? form.resource : undefined;
    this.issue(send, { client_id: clientId, scope, resource, at });
    return true;
  }

  /**
   * The identity provider of enterprise-managed authorization: its OpenID metadata, and a token endpoint that exchanges
   * the ID token it issued for an ID-JAG (RFC 8693). The exchange's parameters are judged
   * (client-side/auth/id-jag-exchange), not refused; another subject token is.
   */
  private identity(req: http.IncomingMessage, url: URL, body: unknown, send: Send): boolean {
    const idp = this.idpOrigin;
    if (req.method === 'GET' && url.pathname === '/.well-known/openid-configuration') {
      send(200, {
        issuer: idp,
        authorization_endpoint: `${idp}/authorize`,
        token_endpoint: `${idp}/token`,
        jwks_uri: `${idp}/jwks.json`,
        grant_types_supported: [TOKEN_EXCHANGE],
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['ES256'],
      });
      return true;
    }
    if (req.method !== 'POST' || url.pathname !== '/token') return false;
    const form = isObject(body) ? body : {};
    if (form.grant_type !== TOKEN_EXCHANGE)
      return (send(400, { error: 'unsupported_grant_type', error_description: String(form.grant_type) }), true);
    if (form.subject_token !== this.context.idp_id_token)
      return (send(400, { error: 'invalid_grant', error_description: 'not an ID token this provider issued' }), true);
    const jag = idpJwt(
      {
        iss: idp,
        sub: 'user@mcp-conformance.invalid',
        aud: typeof form.audience === 'string' ? form.audience : this.issuer,
        client_id: ENTERPRISE.client_id,
        ...(typeof form.resource === 'string' && { resource: form.resource }),
        ...(typeof form.scope === 'string' && { scope: form.scope }),
      },
      'oauth-id-jag+jwt',
    );
    this.log.secret(jag);
    this.jags.add(jag);
    send(200, { access_token: jag, issued_token_type: ID_JAG_TYPE, token_type: 'N_A', expires_in: 300 });
    return true;
  }

  /** The exchanges of one role and path suffix, in order. */
  find(pred: (e: HttpExchange, url: URL) => boolean): HttpExchange[] {
    return this.log.exchanges.filter((e) => pred(e, new URL(e.url)));
  }
}

type Send = (code: number, json?: unknown, headers?: Record<string, string>) => void;

/** The access token a request presents: Bearer or DPoP scheme, or (wrongly: token-in-header judges it) the query. */
function presented(req: http.IncomingMessage): string | undefined {
  return (
    /^(?:Bearer|DPoP)\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ??
    new URL(req.url ?? '/', 'http://x').searchParams.get('access_token') ??
    undefined
  );
}

/** Why a workload JWT is no grant at the authorization server `issuer` (RFC 7523 §3: aud names it; exp not passed). */
export function workloadJwtProblems(
  claims: Record<string, unknown>,
  issuer: string,
  now = Date.now() / 1000,
): string[] {
  const aud = (Array.isArray(claims.aud) ? claims.aud : [claims.aud]).map((v) => String(v).replace(/\/$/, ''));
  return [
    !aud.includes(issuer.replace(/\/$/, '')) &&
      `aud ${JSON.stringify(claims.aud ?? null)} is not this authorization server`,
    !(typeof claims.exp === 'number' && claims.exp > now) && `exp ${JSON.stringify(claims.exp ?? null)} has passed`,
  ].filter((p): p is string => typeof p === 'string');
}

/** The iss the authorization response carries, if any. */
function issFor(sc: AuthScenario, issuer: string): string | undefined {
  switch (sc.iss) {
    case 'sent':
      return issuer;
    case 'wrong':
    case 'unexpected':
      return 'https://attacker.example';
    case 'normalized':
      return `${issuer.replace('http://127.0.0.1', 'HTTP://127.0.0.1')}/`;
    default:
      return undefined;
  }
}

function parseBody(type: string | undefined, text: string): unknown {
  if (!text) return undefined;
  if (type?.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch {
    return text.slice(0, 500);
  }
}
