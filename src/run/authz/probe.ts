// Speaks to an authorization server as an MCP client does, and records what it answered (checks/authz/record.ts): the
// metadata at the locations clients try, a dynamic registration, and authorization code rounds with PKCE, the good one
// and those it must refuse. The end-user step is a BROWSER the user names, or following the authorization endpoint's
// redirects (a test setup's consent URL approves at once) until they reach the redirect_uri.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { asMetadataUrls, isLoopback } from '../../auth/challenge.js';
import type { Answer, Authorized, AuthzRecord, Round } from '../../checks/authz/record.js';
import { isObject } from '../../json.js';

export interface ProbeOptions {
  issuer: string;
  /** A pre-registered client; without one the suite registers itself where the server offers registration. */
  clientId?: string;
  clientSecret?: string;
  /** The `resource` (RFC 8707) to ask tokens for: the MCP server's URL. */
  resource?: string;
  scope?: string;
  /** A command that opens a URL (BROWSER); without one the suite follows the redirects itself. */
  browser?: string;
  /** The loopback port of the redirect_uri (a pre-registered client's is fixed); 0 picks a free one. */
  redirectPort?: number;
  timeoutMs: number;
  /** How long a browser may take to reach the redirect_uri. */
  browserMs: number;
}

const MAX_REDIRECTS = 20;
/** Where the redirect_uri's listener serves the suite's client ID metadata document. */
const DOCUMENT_PATH = '/client-metadata.json';
/** A code the server never issued, for the error response. */
export const NEVER_ISSUED = 'mcp-conformance-never-issued';

const b64url = (b: Buffer) => b.toString('base64url');
const s256 = (verifier: string) => b64url(createHash('sha256').update(verifier).digest());

export async function probe(options: ProbeOptions): Promise<AuthzRecord> {
  const signal = () => AbortSignal.timeout(options.timeoutMs);
  const resource = options.resource ?? new URL('/mcp', options.issuer).href;
  const record: AuthzRecord = { issuer: options.issuer, discovery: [], resource, scope: options.scope, rounds: {} };

  async function send(method: string, url: string, init: RequestInit & { sent?: Record<string, unknown> } = {}) {
    const answer: Answer = { method, url, status: 0, ...(init.sent && { sent: init.sent }) };
    try {
      const res = await fetch(url, { ...init, method, redirect: 'manual', signal: signal() });
      answer.status = res.status;
      answer.contentType = res.headers.get('content-type') ?? undefined;
      answer.cacheControl = res.headers.get('cache-control') ?? undefined;
      const body: unknown = await res.json().catch(() => undefined);
      if (isObject(body)) answer.json = body;
    } catch (err) {
      answer.status = (err as Error).name === 'TimeoutError' ? 'no answer in time' : (err as Error).message;
    }
    return answer;
  }

  for (const { url } of asMetadataUrls(new URL(options.issuer))) {
    const a = await send('GET', url.href);
    record.discovery.push(a);
    if (a.status === 200 && a.json) {
      record.metadata = a.json;
      record.metadataUrl = url.href;
      break;
    }
  }
  const meta = record.metadata;
  if (!meta) return { ...record, noRounds: 'no metadata at any location MCP clients try' };
  const endpoint = (name: string) => (typeof meta[name] === 'string' ? (meta[name] as string) : undefined);

  const callback = await listen(options.redirectPort ?? 0);
  try {
    const redirectUri = `http://127.0.0.1:${callback.port}/callback`;
    if (endpoint('registration_endpoint')) {
      const sent = {
        client_name: 'mcp-conformance',
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        application_type: 'native',
      };
      record.registration = await send('POST', endpoint('registration_endpoint') as string, {
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(sent),
        sent,
      });
    }
    const reg = record.registration?.json;
    if (options.clientId)
      record.client = {
        id: options.clientId,
        ...(options.clientSecret && { secret: options.clientSecret }),
        authMethod: options.clientSecret ? secretMethod(meta) : 'none',
        source: 'pre-registered',
      };
    else if (reg && typeof reg.client_id === 'string')
      record.client = {
        id: reg.client_id,
        ...(typeof reg.client_secret === 'string' && { secret: reg.client_secret }),
        // RFC 7591 §2: an absent method is client_secret_basic.
        authMethod:
          typeof reg.token_endpoint_auth_method === 'string' ? reg.token_endpoint_auth_method : 'client_secret_basic',
        source: 'registered',
      };
    const client = record.client;
    const methods = meta.code_challenge_methods_supported;
    const authorization = endpoint('authorization_endpoint');
    const tokenEndpoint = endpoint('token_endpoint');
    record.noRounds = !client
      ? record.registration
        ? 'the registration gave no client_id (authz/registration/response judges it); pass --client-id'
        : 'the metadata offers no registration_endpoint: pass --client-id (and --client-secret) of a pre-registered client'
      : !Array.isArray(methods) || !methods.includes('S256')
        ? 'the metadata lists no S256 code challenge method: MCP clients refuse to proceed (authz/metadata/pkce-s256)'
        : !authorization || !tokenEndpoint
          ? 'the metadata names no authorization_endpoint or token_endpoint'
          : undefined;
    if (record.noRounds || !client || !authorization || !tokenEndpoint) return record;

    const token = (form: Record<string, string>) => {
      const sent: Record<string, string> = { ...form, redirect_uri: redirectUri };
      const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' };
      if (client.secret && client.authMethod === 'client_secret_basic')
        headers.Authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`).toString('base64')}`;
      else {
        sent.client_id = client.id;
        if (client.secret && client.authMethod === 'client_secret_post') sent.client_secret = client.secret;
      }
      return send('POST', tokenEndpoint, { headers, body: new URLSearchParams(sent), sent });
    };

    /** One round: an authorization request (S256 unless `challenge` is false), then the token request `verifierOf` picks. */
    const round = async (
      verifierOf?: (verifier: string, challenge: string) => string | undefined,
      clientId = client.id,
    ): Promise<Round> => {
      const verifier = b64url(randomBytes(32));
      const challenge = s256(verifier);
      const params = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirectUri,
        state: b64url(randomBytes(12)),
        resource,
        ...(options.scope && { scope: options.scope }),
        ...(verifierOf && { code_challenge: challenge, code_challenge_method: 'S256' }),
      });
      const authorized = await authorize(`${authorization}?${params}`, redirectUri, callback, options);
      const code = authorized.redirect?.searchParams.get('code');
      // The document's round asks only for the code: its token request would be the good round's again.
      if (!code || !verifierOf || clientId !== client.id) return { authorized };
      const v = verifierOf(verifier, challenge);
      return {
        authorized,
        token: await token({
          grant_type: 'authorization_code',
          code,
          resource,
          ...(v !== undefined && { code_verifier: v }),
        }),
      };
    };

    record.rounds.good = await round((v) => v);
    if (record.rounds.good.authorized.needsPerson) {
      record.noRounds = record.rounds.good.authorized.stuck;
      return record;
    }
    const refreshToken = record.rounds.good.token?.json?.refresh_token;
    if (typeof refreshToken === 'string')
      record.refresh = await token({ grant_type: 'refresh_token', refresh_token: refreshToken, resource });
    record.rounds.missingVerifier = await round(() => undefined);
    record.rounds.wrongVerifier = await round(() => b64url(randomBytes(32)));
    record.rounds.plainVerifier = await round((_v, c) => c);
    record.rounds.noChallenge = await round();
    if (meta.client_id_metadata_document_supported === true) {
      // The document is served on loopback, so only a server on this machine can fetch it.
      if (isLoopback(new URL(authorization))) record.rounds.cimd = await round((v) => v, callback.documentUrl);
      else
        record.noCimd =
          'the suite serves its client ID metadata document on loopback: a server elsewhere cannot fetch it';
    }
    record.bogusCode = await token({
      grant_type: 'authorization_code',
      code: NEVER_ISSUED,
      code_verifier: b64url(randomBytes(32)),
    });
    // The replaced refresh token again, last: a server that detects the replay revokes the whole grant (OAuth 2.1 §4.3.1).
    const fresh = record.refresh?.json?.refresh_token;
    if (typeof refreshToken === 'string' && typeof fresh === 'string' && fresh !== refreshToken)
      record.refreshReuse = await token({ grant_type: 'refresh_token', refresh_token: refreshToken, resource });
    return record;
  } finally {
    await callback.close();
  }
}

/** The secret method a pre-registered client uses: client_secret_basic unless the metadata lists only _post (RFC 8414 §2). */
function secretMethod(meta: Record<string, unknown>): string {
  const listed = meta.token_endpoint_auth_methods_supported;
  return Array.isArray(listed) && !listed.includes('client_secret_basic') && listed.includes('client_secret_post')
    ? 'client_secret_post'
    : 'client_secret_basic';
}

interface Callback {
  port: number;
  /** The URL of the suite's client ID metadata document (its client_id). */
  documentUrl: string;
  /** The next request to the redirect_uri, or undefined after `ms`. */
  next(ms: number): Promise<URL | undefined>;
  close(): Promise<void>;
}

/** The redirect_uri's listener on loopback: a browser lands there. */
async function listen(port: number): Promise<Callback> {
  let waiting: ((url: URL) => void) | undefined;
  let documentUrl = '';
  const server = http.createServer((req, res) => {
    if (req.url === DOCUMENT_PATH) {
      const redirect = new URL('/callback', documentUrl).href;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(
        JSON.stringify({
          client_id: documentUrl,
          client_name: 'mcp-conformance',
          redirect_uris: [redirect],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
          application_type: 'native',
        }),
      );
      return;
    }
    res
      .writeHead(200, { 'Content-Type': 'text/plain' })
      .end('mcp-conformance has the authorization response; close this page.');
    waiting?.(new URL(req.url ?? '/', `http://127.0.0.1:${port}`));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  documentUrl = `http://127.0.0.1:${bound}${DOCUMENT_PATH}`;
  return {
    port: bound,
    documentUrl,
    next: (ms) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve(undefined), ms);
        waiting = (url) => {
          clearTimeout(timer);
          waiting = undefined;
          resolve(url);
        };
      }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The end-user step: the BROWSER opens the URL and the redirect_uri's listener waits, or the suite follows redirects. */
async function authorize(
  url: string,
  redirectUri: string,
  callback: Callback,
  options: ProbeOptions,
): Promise<Authorized> {
  if (options.browser) {
    const landed = callback.next(options.browserMs);
    spawn(options.browser, [url], { stdio: 'ignore', shell: false }).on('error', () => {});
    const redirect = await landed;
    return redirect
      ? { request: url, redirect }
      : {
          request: url,
          needsPerson: true,
          stuck: `the browser (${options.browser}) did not reach the redirect_uri within ${options.browserMs / 1000} s`,
        };
  }
  const cookies = new Map<string, string>();
  let at = url;
  for (let i = 0; i <= MAX_REDIRECTS; i++) {
    let res: Response;
    try {
      res = await fetch(at, {
        redirect: 'manual',
        headers: cookies.size ? { Cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {},
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (err) {
      return { request: url, stuck: `GET ${at}: ${(err as Error).message}` };
    }
    await res.body?.cancel();
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, at);
      if (next.href.startsWith(redirectUri)) return { request: url, redirect: next };
      at = next.href;
      continue;
    }
    const page = res.status === 200 && /html/.test(res.headers.get('content-type') ?? '');
    return {
      request: url,
      needsPerson: page,
      stuck: page
        ? `the authorization endpoint showed a page (${at}) instead of redirecting to the redirect_uri: it needs a person; set BROWSER to a command that opens a URL, or use a consent URL that approves at once`
        : `GET ${at} → HTTP ${res.status}, not a redirect to the redirect_uri`,
    };
  }
  return { request: url, stuck: `more than ${MAX_REDIRECTS} redirects` };
}
