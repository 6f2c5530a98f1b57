#!/usr/bin/env node
// The reference MCP client's authorization: an OAuth 2.1 client as the MCP authorization specification (2025-03-26,
// 2025-06-18, 2025-11-25) asks for it. `node oauth.mjs <server-url>` connects the way a conformance client does
// (MCP_CONFORMANCE_SCENARIO / MCP_CONFORMANCE_CONTEXT), lists the tools and calls the first one, authorizing on the
// way. `connect(url, env, faults)` does the same in the caller's process; `faults` breaks it one way at a time (the
// suite's own tests use them as faulty clients), but for `browser: true`, which opens the authorization URL with
// $BROWSER rather than fetching it.
import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, randomUUID, sign } from 'node:crypto';
import http from 'node:http';
import { spawn } from 'node:child_process';

/** Re-authorizations for one request refused for insufficient scope, at most. */
const STEP_UPS = 2;
/** A token that expires within this long is refreshed before it is used (a margin for clock skew and latency). */
const REFRESH_MARGIN_MS = 30_000;
const b64url = (buf) => Buffer.from(buf).toString('base64url');
const JWT_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** The params of the Bearer challenge of a WWW-Authenticate value. */
export function bearerParams(header) {
  const m = /Bearer\s+(.*)$/i.exec(header ?? '');
  const params = {};
  for (const p of (m?.[1] ?? '').matchAll(/([A-Za-z_]+)=(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g))
    params[p[1].toLowerCase()] = p[2] ?? p[3];
  return params;
}

async function getJson(url, init = {}) {
  const r = await fetch(url, init);
  if (!r.ok) return undefined;
  try {
    return await r.json();
  } catch {
    return undefined;
  }
}

/** A loopback server for the redirect (and the client ID metadata document): resolves each callback's query. */
async function loopbackServer(documentFor) {
  const waiting = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/client.json') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(documentFor(origin)));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('You may close this window.');
    waiting.shift()?.(url.searchParams);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    next: () => new Promise((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      }),
  };
}

/** An ES256 JWT over `header` and `claims`, signed with `key` (a KeyObject or PEM). */
function es256(header, claims, key) {
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
  const sig = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${b64url(sig)}`;
}

/** An EC P-256 key pair, its public JWK and that JWK's thumbprint (RFC 7638: the required members, in order). */
function ecKey() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const jkt = createHash('sha256')
    .update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }))
    .digest('base64url');
  return { privateKey, jwk, jkt };
}

/**
 * A DPoP key (RFC 9449) and the nonces servers gave (per origin, §8/§9): `proof(method, url, token)` is a fresh proof
 * for one request, `jkt` the key's thumbprint (the dpop_jkt of §10). `proof(…, other)` signs with another key (a
 * fault's). Faults: `dpop-reuse-proof` sends one jti on every MCP request; `ignore-dpop-nonce` never keeps a nonce;
 * `ignore-as-nonce` and `ignore-rs-nonce` not the authorization server's, or not the MCP server's (at `mcpOrigin`).
 */
function dpopKey(faults, mcpOrigin) {
  const own = ecKey();
  let spare;
  const nonces = new Map();
  const fixedJti = randomUUID();
  return {
    jkt: own.jkt,
    proof(method, url, token, other = false) {
      const { privateKey, jwk } = other ? (spare ??= ecKey()) : own;
      const u = new URL(url);
      const claims = {
        jti: token && faults['dpop-reuse-proof'] ? fixedJti : randomUUID(),
        htm: method,
        htu: `${u.origin}${u.pathname}`,
        iat: Math.floor(Date.now() / 1000),
        ...(token && { ath: createHash('sha256').update(token).digest('base64url') }),
        ...(nonces.has(u.origin) && { nonce: nonces.get(u.origin) }),
      };
      return es256({ typ: 'dpop+jwt', alg: 'ES256', jwk }, claims, privateKey);
    },
    /** Keeps the DPoP-Nonce a response gives (any response may carry a new one: §8.2); true if it gave one. */
    observe(response, url) {
      const nonce = response.headers.get('dpop-nonce');
      const origin = new URL(url).origin;
      const ignored =
        faults['ignore-dpop-nonce'] ||
        (faults['ignore-as-nonce'] && origin !== mcpOrigin) ||
        (faults['ignore-rs-nonce'] && origin === mcpOrigin);
      if (nonce && !ignored) nonces.set(origin, nonce);
      return Boolean(nonce);
    },
  };
}

/** Whether the resource identifier `resource` names `url`: the same origin, and `url`'s path at or under its path. */
function covers(resource, url) {
  try {
    const r = new URL(resource);
    const u = new URL(url);
    const base = r.pathname.replace(/\/$/, '');
    return r.origin === u.origin && (u.pathname === base || u.pathname.startsWith(`${base}/`));
  } catch {
    return false;
  }
}

/** Where the authorization server's metadata may be, in the order of the 2025-11-25 revision (03-26: the root only). */
function asMetadataUrls(issuer, revision, faults) {
  const u = new URL(issuer);
  const p = u.pathname === '/' ? '' : u.pathname.replace(/\/$/, '');
  const o = u.origin;
  if (revision === '2025-03-26') return [`${o}/.well-known/oauth-authorization-server`];
  const urls = p
    ? [
        `${o}/.well-known/oauth-authorization-server${p}`,
        `${o}/.well-known/openid-configuration${p}`,
        `${o}${p}/.well-known/openid-configuration`,
      ]
    : [`${o}/.well-known/oauth-authorization-server`, `${o}/.well-known/openid-configuration`];
  return faults['openid-first'] ? [...urls].reverse() : urls;
}

/**
 * Connects to `serverUrl`: initialize, tools/list, tools/call of the first tool, authorizing when the server asks.
 * Throws when the authorization cannot be done safely (a mismatched resource or issuer, no PKCE, a bad response).
 */
export async function connect(serverUrl, env = process.env, faults = {}) {
  const revision = env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? '2025-11-25';
  // `initialize-always` (not a fault): a client of the initialize wire told 2026-07-28, as SDK 1.x clients are.
  const stateless = revision === '2026-07-28' && !faults['initialize-always'];
  const context = env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(env.MCP_CONFORMANCE_CONTEXT) : {};
  const mcpUrl = new URL(serverUrl);
  const state = {
    token: undefined,
    expires: 0,
    refresh: undefined,
    as: undefined,
    client: undefined,
    scope: undefined,
  };
  /** The DPoP key, once a server says it takes DPoP proofs; and whether the access token is bound to it. */
  let dpop;
  let bound = false;
  let callbacks;
  const loop = () =>
    (callbacks ??= loopbackServer((origin) => ({
      client_id: faults['cimd-wrong-id'] ? `${origin}/other.json` : `${origin}/client.json`,
      client_name: 'mcp-conformance reference client',
      redirect_uris: [`${origin}/callback`],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    })));

  /** Resource metadata → authorization server metadata → a registered client. */
  async function discover(challenge, client) {
    let prm;
    const origin = mcpUrl.origin;
    const suffixed = `${origin}/.well-known/oauth-protected-resource${mcpUrl.pathname === '/' ? '' : mcpUrl.pathname}`;
    const root = `${origin}/.well-known/oauth-protected-resource`;
    const candidates = faults['root-prm-first']
      ? [root, suffixed]
      : [...(challenge.resource_metadata ? [challenge.resource_metadata] : []), suffixed, root];
    let prmUrl;
    for (const url of candidates)
      if ((prm = await getJson(url))) {
        prmUrl = url;
        break;
      }
    let issuer;
    if (prm) {
      // RFC 9728 §3.3 with MCP's canonical URI: the resource is the server's URL, or an origin and path it lies under.
      if (!covers(prm.resource, serverUrl) && !faults['trust-resource'])
        throw new Error(`resource metadata names ${prm.resource}, not ${serverUrl}`);
      issuer = prm.authorization_servers?.[0];
      if (!issuer) throw new Error('resource metadata names no authorization server');
    } else if (revision === '2025-03-26') issuer = origin;
    else throw new Error('no resource metadata');
    let meta;
    for (const url of asMetadataUrls(issuer, revision, faults)) if ((meta = await getJson(url))) break;
    if (!meta && revision === '2025-03-26')
      meta = {
        issuer,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        code_challenge_methods_supported: ['S256'],
        fallback: true,
      };
    if (!meta) throw new Error(`no authorization server metadata for ${issuer}`);
    if (meta.issuer !== issuer && !faults['trust-issuer'])
      throw new Error(`metadata issuer ${meta.issuer} is not ${issuer}`);
    if (!meta.code_challenge_methods_supported?.includes('S256') && !faults['ignore-pkce-support'])
      throw new Error('the authorization server does not support PKCE S256');
    state.as = { issuer, meta, prm, prmUrl };
    if (meta.dpop_signing_alg_values_supported?.includes('ES256') || prm?.dpop_bound_access_tokens_required)
      dpop ??= dpopKey(faults, mcpUrl.origin);
    state.client = client ?? (await register(meta));
  }

  async function register(meta) {
    // A workload presents its JWT as the grant: no client secret (RFC 7523 §2.1, §3.1: client authentication optional).
    if (context.valid_jwt) return { client_id: context.client_id, method: 'none' };
    if (context.private_key_pem)
      return { client_id: context.client_id, key: context.private_key_pem, method: 'private_key_jwt' };
    if (context.client_id)
      return { client_id: context.client_id, client_secret: context.client_secret, method: 'client_secret_basic' };
    const cb = await loop();
    if (meta.client_id_metadata_document_supported && !faults['dcr-always'])
      return { client_id: `${cb.origin}/client.json`, method: 'none', redirect: `${cb.origin}/callback` };
    if (!meta.registration_endpoint) throw new Error('no way to register with the authorization server');
    const supported = meta.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
    const method = ['none', 'client_secret_basic', 'client_secret_post'].find((m) => supported.includes(m));
    // 0.0.0.0 reaches the loopback callback, but is neither a localhost URL nor https.
    const redirect = faults['http-redirect']
      ? cb.origin.replace('127.0.0.1', '0.0.0.0') + '/callback'
      : `${cb.origin}/callback`;
    const r = await fetch(meta.registration_endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_name: 'mcp-conformance reference client',
        redirect_uris: [redirect],
        // A loopback redirect: a native application (OpenID Connect Registration §2; SEP-837).
        ...(!faults['no-application-type'] && { application_type: faults['web-application-type'] ? 'web' : 'native' }),
        grant_types: faults['no-refresh-grant'] ? ['authorization_code'] : ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        // `no-auth-method` (not a fault): a public native client that names no method and authenticates as `none`.
        ...(!faults['no-auth-method'] && { token_endpoint_auth_method: method }),
      }),
    });
    if (!r.ok) throw new Error(`registration failed: HTTP ${r.status}`);
    const reg = await r.json();
    return {
      client_id: reg.client_id,
      client_secret: faults['no-auth-method'] ? undefined : reg.client_secret,
      method: faults['no-auth-method'] ? 'none' : (reg.token_endpoint_auth_method ?? method),
      redirect,
    };
  }

  /** The resource parameter (RFC 8707): the resource the metadata names, as it names it (`resource-slash`: re-serialized). */
  const resourceParam = () => {
    const named = state.as.prm?.resource ?? serverUrl;
    return faults['resource-slash'] ? new URL(named).href : named;
  };

  /** The scopes to ask for: the challenge's, else scopes_supported, else none (offline_access only where offered). */
  function scopeFor(challenge) {
    if (faults['no-scope-fallback'] && !challenge.scope) return undefined;
    // `partial-scopes`: one scope where the metadata lists several, and one where nothing names any.
    if (faults['partial-scopes'] && !challenge.scope) return state.as.prm?.scopes_supported?.[0] ?? 'mcp:basic';
    let scopes =
      challenge.scope && !faults['ignore-challenge-scope']
        ? challenge.scope.split(' ')
        : state.as.prm?.scopes_supported;
    if (!scopes) return undefined;
    const offered = state.as.meta.scopes_supported?.includes('offline_access');
    scopes = scopes.filter((s) => s !== 'offline_access' || offered);
    if (offered && !scopes.includes('offline_access')) scopes.push('offline_access');
    return scopes.join(' ');
  }

  async function tokenRequest(params) {
    const { client } = state;
    const headers = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const body = new URLSearchParams(params);
    const method = faults['wrong-auth-method'] && client.client_secret ? 'client_secret_post' : client.method;
    if (method === 'private_key_jwt') {
      // RFC 7523 §2.2 / §3: an ES256 JWT naming the client as iss and sub and the token endpoint as aud.
      const claims = {
        iss: client.client_id,
        sub: faults['jwt-wrong-sub'] ? 'someone-else' : client.client_id,
        aud: state.as.meta.token_endpoint,
        iat: Math.floor(Date.now() / 1000),
        exp: Math.floor(Date.now() / 1000) + 300,
        jti: randomUUID(),
      };
      body.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
      body.set('client_assertion', es256({ alg: 'ES256', typ: 'JWT' }, claims, createPrivateKey(client.key)));
    } else if (method === 'client_secret_basic')
      headers.Authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64')}`;
    else {
      body.set('client_id', client.client_id);
      if (method === 'client_secret_post') body.set('client_secret', client.client_secret);
    }
    if (revision !== '2025-03-26' && !faults['no-resource']) body.set('resource', resourceParam());
    const endpoint = state.as.meta.token_endpoint;
    // RFC 9449 §5: every token request carries a proof, a refresh one by the key the refresh token is bound to.
    const refresh = params.grant_type === 'refresh_token';
    const noProof = refresh ? faults['dpop-refresh-no-proof'] : faults['dpop-no-token-proof'];
    const post = () => {
      if (dpop && !noProof)
        headers.DPoP = dpop.proof('POST', endpoint, undefined, refresh && faults['dpop-refresh-new-key']);
      return fetch(endpoint, { method: 'POST', headers, body });
    };
    let r = await post();
    let json = await r.json().catch(() => ({}));
    // RFC 9449 §8: a use_dpop_nonce answer is retried once with a new proof (carrying the nonce it gave).
    if (dpop?.observe(r, endpoint) && r.status === 400 && json.error === 'use_dpop_nonce') {
      r = await post();
      json = await r.json().catch(() => ({}));
      dpop.observe(r, endpoint);
    }
    if (!r.ok) throw new Error(`token request failed: ${json.error ?? r.status}`);
    state.token = json.access_token;
    state.expires = Date.now() + (typeof json.expires_in === 'number' ? json.expires_in * 1000 : 3_600_000);
    bound = String(json.token_type).toLowerCase() === 'dpop';
    state.refresh = json.refresh_token ?? state.refresh;
    // A client that puts its token on every request it makes, the metadata's too.
    if (faults['token-everywhere'] && state.as.prm)
      await fetch(`${mcpUrl.origin}/.well-known/oauth-protected-resource${mcpUrl.pathname}`, {
        headers: { Authorization: `Bearer ${state.token}` },
      });
  }

  /**
   * Enterprise-managed authorization: the ID token exchanged at the identity provider for an ID-JAG (RFC 8693) for
   * this authorization server and MCP server, then presented as a jwt-bearer grant.
   */
  async function enterprise() {
    const r = await fetch(context.idp_token_endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
        subject_token: context.idp_id_token,
        subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
        audience: faults['ema-wrong-audience'] ? serverUrl : state.as.issuer,
        resource: state.as.prm?.resource ?? serverUrl,
        client_id: context.idp_client_id,
      }),
    });
    const json = await r.json().catch(() => ({}));
    if (!r.ok || !json.access_token) throw new Error(`token exchange failed: ${json.error ?? r.status}`);
    return tokenRequest({ grant_type: JWT_GRANT, assertion: json.access_token });
  }

  /** Authorizes; `stepUp` after a 403 insufficient_scope. */
  async function authorize(challenge, stepUp = false) {
    if (!state.as) await discover(challenge);
    const meta = state.as.meta;
    if (context.idp_id_token) return enterprise();
    if (context.valid_jwt) {
      const jwt = faults['wif-wrong-audience']
        ? context.wrong_audience_jwt
        : faults['wif-expired']
          ? context.expired_jwt
          : context.valid_jwt;
      if (faults['wif-retry'] || faults['wif-grant-fallback']) {
        // Asks for a scope the workload is refused (unauthorized_client), and does not stop at the refusal: it asks
        // again without it, or (wif-grant-fallback) falls back to redeeming a code it never got.
        try {
          return await tokenRequest({ grant_type: JWT_GRANT, assertion: jwt, scope: 'wif.trigger-unauthorized' });
        } catch {
          return tokenRequest(
            faults['wif-retry']
              ? { grant_type: JWT_GRANT, assertion: jwt }
              : { grant_type: 'authorization_code', code: 'no-such-code' },
          );
        }
      }
      return tokenRequest(
        faults['wif-as-client-assertion']
          ? {
              grant_type: 'client_credentials',
              client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
              client_assertion: jwt,
            }
          : faults['wif-no-assertion']
            ? { grant_type: JWT_GRANT }
            : {
                grant_type: JWT_GRANT,
                assertion: jwt,
                // No fault: a scope the workload is refused (invalid_scope), where a conformant client stops.
                ...(faults['wif-refused-scope'] && { scope: 'wif.rejected' }),
              },
      );
    }
    if (
      env.MCP_CONFORMANCE_SCENARIO?.startsWith('auth/client-credentials') &&
      (context.client_secret || context.private_key_pem)
    )
      return tokenRequest({ grant_type: 'client_credentials' });
    const cb = await loop();
    const verifier = b64url(randomBytes(32));
    const sent = b64url(randomBytes(16));
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: state.client.client_id,
      redirect_uri: state.client.redirect ?? `${cb.origin}/callback`,
    });
    if (!faults['no-pkce']) {
      q.set('code_challenge', b64url(createHash('sha256').update(verifier).digest()));
      q.set('code_challenge_method', 'S256');
    }
    q.set('state', sent);
    let scope = scopeFor(challenge);
    // A step-up asks for the scopes asked for before as well as the challenged ones (SEP-2350, 2026-07-28): a
    // challenge names the current operation's scopes only. `echo-scope` asks for the challenged ones alone.
    if (stepUp && state.scope && !faults['echo-scope'])
      scope = [...new Set([...state.scope.split(' '), ...(scope ?? '').split(' ')])].filter(Boolean).join(' ');
    state.scope = scope;
    if (scope) q.set('scope', scope);
    if (revision !== '2025-03-26' && !faults['no-resource']) q.set('resource', resourceParam());
    // RFC 9449 §10: the code bound to the DPoP key that will redeem it (`dpop-wrong-jkt`: another key's thumbprint).
    if (dpop && !faults['dpop-no-jkt']) q.set('dpop_jkt', faults['dpop-wrong-jkt'] ? ecKey().jkt : dpop.jkt);
    const url = `${meta.authorization_endpoint}?${q}`;
    const answer = cb.next();
    // Without a browser it follows the redirect itself; a refused authorization request ends the wait at once.
    const refused = new Promise((r) => {
      if (env.BROWSER && faults.browser) spawn(env.BROWSER, [url], { stdio: 'ignore' });
      else
        void fetch(url).then(
          (res) => res.ok || r(undefined),
          () => r(undefined),
        );
    });
    const got = await Promise.race([answer, refused, new Promise((r) => setTimeout(() => r(undefined), 10_000))]);
    if (!got) throw new Error('no authorization response');
    if (got.get('state') !== sent && !faults['no-state-check']) throw new Error('state mismatch');
    const iss = got.get('iss');
    if (!faults['ignore-iss']) {
      if (meta.authorization_response_iss_parameter_supported && iss === null) throw new Error('iss missing');
      if (iss !== null && iss !== state.as.meta.issuer) throw new Error(`iss ${iss} is not ${state.as.meta.issuer}`);
    }
    const code = got.get('code');
    if (!code) throw new Error(`authorization failed: ${got.get('error')}`);
    // `stop-before-token` (not a fault): a flow that breaks here, as a client's own bug or a refusal would end it.
    if (faults['stop-before-token']) throw new Error('stopped before the token request');
    await tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: q.get('redirect_uri'),
      ...(!faults['no-pkce'] && { code_verifier: verifier }),
    });
  }

  let sessionId;
  let nextId = 1;
  /** The Authorization (and DPoP) headers that present the access token on a request to `url`. */
  const present = (method, url) => {
    if (!bound) return { Authorization: `Bearer ${state.token}` };
    const scheme = faults['dpop-bearer'] ? 'Bearer' : 'DPoP';
    return { Authorization: `${scheme} ${state.token}`, DPoP: dpop.proof(method, url, state.token) };
  };
  /** Refreshes the access token when it expires soon and a refresh token was granted. */
  async function refreshIfDue() {
    if (!state.token || !state.refresh || faults['no-refresh'] || state.expires - Date.now() > REFRESH_MARGIN_MS)
      return;
    const refresh = state.refresh;
    state.refresh = undefined;
    await tokenRequest({ grant_type: 'refresh_token', refresh_token: refresh });
  }
  /** One MCP message over POST; authorizes on 401, steps up on 403. */
  async function send(message) {
    let nonceRetried = false;
    for (let attempt = 0; ; attempt++) {
      await refreshIfDue();
      const url = new URL(mcpUrl);
      let headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
      if (state.token && faults['token-in-query']) url.searchParams.set('access_token', state.token);
      else if (state.token) headers = { ...headers, ...present('POST', url) };
      if (sessionId) headers['Mcp-Session-Id'] = sessionId;
      if (revision !== '2025-03-26') headers['MCP-Protocol-Version'] = revision;
      // 2026-07-28 (SEP-2243): the method and the name a request is about, as headers.
      if (stateless && message.method) {
        headers['Mcp-Method'] = message.method;
        if (message.params?.name !== undefined) headers['Mcp-Name'] = String(message.params.name);
      }
      const r = await fetch(url, { method: 'POST', headers, body: JSON.stringify(message) });
      sessionId = r.headers.get('mcp-session-id') ?? sessionId;
      const challenge = bearerParams(r.headers.get('www-authenticate'));
      const given = dpop?.observe(r, url);
      // RFC 9449 §9: the MCP server wants its nonce in the proof; one retry with it, not a new authorization.
      if (
        r.status === 401 &&
        given &&
        /use_dpop_nonce/.test(r.headers.get('www-authenticate') ?? '') &&
        !nonceRetried
      ) {
        nonceRetried = true;
        attempt--;
        continue;
      }
      if (r.status === 401) {
        if (faults['no-authorize'] || attempt > STEP_UPS) throw new Error('unauthorized');
        // A token refused: the resource metadata may name another authorization server now, whose registration and
        // tokens are its own (credentials are not portable between authorization servers).
        if (state.token && state.as?.prm && challenge.error === 'invalid_token') {
          const prm = await getJson(challenge.resource_metadata ?? state.as.prmUrl);
          if (prm?.authorization_servers?.[0] && prm.authorization_servers[0] !== state.as.issuer) {
            const kept = state.client;
            state.as = undefined;
            state.refresh = undefined;
            await discover(challenge, faults['reuse-client'] ? kept : undefined);
          }
        }
        if (state.refresh && !faults['no-refresh']) {
          const refresh = state.refresh;
          state.refresh = undefined;
          await tokenRequest({ grant_type: 'refresh_token', refresh_token: refresh });
        } else await authorize(challenge);
        continue;
      }
      if (r.status === 403 && challenge.error === 'insufficient_scope') {
        if (faults['no-step-up'] || (attempt >= STEP_UPS && !faults['loop-on-403']))
          throw new Error('insufficient scope');
        await authorize(challenge, true);
        continue;
      }
      if (r.status === 202) return undefined;
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      const type = r.headers.get('content-type') ?? '';
      const text = await r.text();
      if (type.includes('text/event-stream')) {
        const data = text
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trim());
        return JSON.parse(data[data.length - 1] ?? 'null');
      }
      return JSON.parse(text);
    }
  }
  const clientInfo = { name: 'mcp-conformance-reference-client', version: '1.0.0' };
  // 2026-07-28 has no handshake: every request carries the version, capabilities and client info in _meta.
  const meta = stateless
    ? {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': revision,
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': clientInfo,
        },
      }
    : {};
  const request = (method, params) =>
    send({ jsonrpc: '2.0', id: nextId++, method, ...((params || stateless) && { params: { ...params, ...meta } }) });

  try {
    // A client that only lists (`list-only`) makes that one request.
    if (stateless) {
      if (!faults['list-only']) await request('server/discover', {});
    } else {
      await request('initialize', { protocolVersion: revision, capabilities: {}, clientInfo });
      await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    }
    const listed = await request('tools/list', {});
    // `list-only` (not a fault): a client that lists and leaves, as CLIs that only list do.
    if (faults['list-only']) return;
    const tool = listed?.result?.tools?.[0];
    if (tool) await request('tools/call', { name: tool.name, arguments: { text: 'hello' } });
    if (!stateless) await request('ping');
  } finally {
    // The session ends with a DELETE (the Streamable HTTP transport's SHOULD), also when the client gives up.
    if (sessionId) {
      const url = new URL(mcpUrl);
      if (state.token && faults['token-in-query']) url.searchParams.set('access_token', state.token);
      await fetch(url, {
        method: 'DELETE',
        headers: {
          'Mcp-Session-Id': sessionId,
          ...(state.token && !faults['token-in-query'] && present('DELETE', url)),
          ...(revision !== '2025-03-26' && { 'MCP-Protocol-Version': revision }),
        },
      }).catch(() => undefined);
    }
    await (await callbacks)?.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.argv[process.argv.length - 1];
  // As a command it opens the authorization URL with $BROWSER, as a desktop client would.
  connect(url, process.env, { browser: true }).then(
    () => process.exit(0),
    (e) => {
      process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    },
  );
}
