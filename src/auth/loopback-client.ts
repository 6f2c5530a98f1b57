import { createHash, randomBytes } from 'node:crypto';
import { asMetadataUrls, isLoopback } from './challenge.js';
import { isObject } from '../json.js';

/** Where the authorization server is told to send the code: nothing listens there, the suite reads it off the redirect. */
const REDIRECT = 'http://127.0.0.1:9/mcp-conformance-callback';
const WAIT_MS = 5000;

const b64url = (buf: Buffer) => buf.toString('base64url');

async function json(res: Response, what: string): Promise<Record<string, unknown>> {
  const body: unknown = await res.json().catch(() => undefined);
  if (!res.ok || !isObject(body)) throw new Error(`${what} → HTTP ${res.status}`);
  return body;
}

/**
 * An access token from the server's own authorization server, when it is on this machine and hands out codes without
 * a login (as SDK demo servers do): its RFC 8414 metadata, dynamic client registration, the authorization code flow
 * with PKCE, and `resource` (RFC 8707) — `undefined` asks for a token for no resource. Throws with why it could not.
 */
export async function loopbackToken(issuer: string, resource: string | undefined, scope?: string): Promise<string> {
  const base = new URL(issuer);
  if (!isLoopback(base))
    throw new Error(
      `the authorization server ${base.origin} is not on this machine; the suite asks only loopback ones for tokens`,
    );
  const signal = () => AbortSignal.timeout(WAIT_MS);
  const meta = await json(await fetch(asMetadataUrls(base)[0].url, { signal: signal() }), 'its metadata');
  const endpoint = (name: string) => {
    const v = meta[name];
    if (typeof v !== 'string' || !isLoopback(new URL(v))) throw new Error(`its metadata names no loopback ${name}`);
    return v;
  };
  const client = await json(
    await fetch(endpoint('registration_endpoint'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_name: 'mcp-conformance',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
      signal: signal(),
    }),
    'client registration',
  );
  const clientId = String(client.client_id);
  const verifier = b64url(randomBytes(32));
  const state = b64url(randomBytes(8));
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: b64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
    state,
    ...(resource !== undefined && { resource }),
    ...(scope && { scope }),
  });
  const authorize = await fetch(`${endpoint('authorization_endpoint')}?${params}`, {
    redirect: 'manual',
    signal: signal(),
  });
  const location = authorize.headers.get('location');
  const code = location ? new URL(location, REDIRECT).searchParams.get('code') : null;
  if (!code)
    throw new Error(`the authorization endpoint → HTTP ${authorize.status} without a code (it may want a login)`);
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT,
    client_id: clientId,
    ...(typeof client.client_secret === 'string' && { client_secret: client.client_secret }),
    ...(resource !== undefined && { resource }),
  });
  const token = await json(
    await fetch(endpoint('token_endpoint'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form,
      signal: signal(),
    }),
    'the token request',
  );
  if (typeof token.access_token !== 'string') throw new Error('the token response has no access_token');
  return token.access_token;
}
