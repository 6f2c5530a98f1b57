// Signed JWTs of the client-authorization scenarios: client authentication (private_key_jwt, RFC 7523 §2.2 and §3)
// with the suite's key pair for the scenario's client, and the grants an identity provider's JWT stands for (RFC 7523
// §2.1: a workload's JWT, an identity assertion authorization grant), signed by the suite's identity provider key.
import { type KeyObject, createPublicKey, generateKeyPairSync, randomUUID, sign, verify } from 'node:crypto';
import { isObject } from '../json.js';

export const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
export const JWT_CLIENT_ID = 'mcp-conformance-jwt-service';
/** RFC 7523 §2.1: a JWT used as an authorization grant. */
export const JWT_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

let pair: { privatePem: string; publicKey: KeyObject } | undefined;
/** One P-256 key pair per process: the private key goes to the client in MCP_CONFORMANCE_CONTEXT (and is a secret). */
export function jwtKeys(): { privatePem: string; publicKey: KeyObject } {
  if (!pair) {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    pair = {
      privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicKey: createPublicKey(privateKey),
    };
  }
  return pair;
}

let idp: { privateKey: KeyObject; publicKey: KeyObject } | undefined;
/** The identity provider's P-256 key pair (one per process): it signs workload JWTs, ID tokens and ID-JAGs. */
export function idpKeys(): { privateKey: KeyObject; publicKey: KeyObject } {
  idp ??= generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return idp;
}

/** An ES256 JWT signed by the identity provider, valid for ten minutes, with a jti of its own. */
export function idpJwt(claims: Record<string, unknown>, typ = 'JWT'): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const input = `${part({ alg: 'ES256', typ })}.${part({ iat: now, exp: now + 600, jti: randomUUID(), ...claims })}`;
  const sig = sign('sha256', Buffer.from(input), { key: idpKeys().privateKey, dsaEncoding: 'ieee-p1363' });
  return `${input}.${sig.toString('base64url')}`;
}

/** An assertion read: its header and claims, whether the ES256 signature verifies with the suite's key. */
export interface Assertion {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  signed: boolean;
}

export function readAssertion(jwt: string, key: KeyObject = jwtKeys().publicKey): Assertion | undefined {
  const [h, p, sig] = jwt.split('.');
  if (h === undefined || p === undefined || sig === undefined) return undefined;
  try {
    const header: unknown = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
    const claims: unknown = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
    if (!isObject(header) || !isObject(claims)) return undefined;
    const signed =
      header.alg === 'ES256' &&
      verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig, 'base64url'));
    return { header, claims, signed };
  } catch {
    return undefined;
  }
}

/** What is wrong with an assertion for `clientId` at an authorization server whose issuer and token endpoint are given. */
export function assertionProblems(
  a: Assertion,
  clientId: string,
  audiences: string[],
  now = Date.now() / 1000,
): string[] {
  const c = a.claims;
  const aud = Array.isArray(c.aud) ? c.aud : [c.aud];
  return [
    !a.signed && 'not an ES256 signature by the key the context gave',
    c.iss !== clientId && `iss ${JSON.stringify(c.iss ?? null)} is not the client_id`,
    c.sub !== clientId && `sub ${JSON.stringify(c.sub ?? null)} is not the client_id`,
    !aud.some((v) => typeof v === 'string' && audiences.includes(v)) &&
      `aud ${JSON.stringify(c.aud ?? null)} names neither the issuer nor the token endpoint`,
    !(typeof c.exp === 'number' && c.exp > now) && 'no exp in the future',
  ].filter((p): p is string => typeof p === 'string');
}
