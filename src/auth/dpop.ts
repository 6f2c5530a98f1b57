// DPoP (RFC 9449) as the suite's servers see it: a proof read and verified with node:crypto (RFC 9449 §4.3), the JWK
// thumbprint a token is bound to (RFC 7638), and the access token hash a proof carries when it presents a token.
import { constants, createHash, createPublicKey, verify } from 'node:crypto';
import { isObject } from '../json.js';

/** The proof algorithms the suite's servers advertise and verify (asymmetric only: RFC 9449 §4.2). */
export const DPOP_ALGS = ['ES256', 'ES384', 'RS256', 'PS256', 'EdDSA'];

/** How long either way of the server's clock a proof's iat may be (a loaded machine is slow, never an hour off). */
const IAT_WINDOW_S = 300;

const b64 = (value: string | Buffer) => createHash('sha256').update(value).digest('base64url');

/** RFC 7638: the SHA-256 of the key's required members, in lexicographic order, without whitespace. */
export function thumbprint(jwk: Record<string, unknown>): string {
  const members =
    jwk.kty === 'EC' ? ['crv', 'kty', 'x', 'y'] : jwk.kty === 'RSA' ? ['e', 'kty', 'n'] : ['crv', 'kty', 'x'];
  return b64(JSON.stringify(Object.fromEntries(members.map((m) => [m, jwk[m]]))));
}

/** The `ath` claim of a proof that presents `token` (RFC 9449 §4.2). */
export const accessTokenHash = (token: string) => b64(token);

/** A proof as read from a request's DPoP header. */
export interface Proof {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  /** The thumbprint of the key in its header, when its signature verifies with that key. */
  jkt?: string;
  /** What is wrong with it for the request it came with (nonce apart: that is the server's challenge to judge). */
  problems: string[];
}

/** The request a proof came with: its method and URL, and the access token it presents, if any. */
export interface ProofRequest {
  method: string;
  url: string;
  token?: string;
  now?: number;
}

function verifies(alg: unknown, jwk: Record<string, unknown>, input: string, sig: Buffer): boolean {
  const key = createPublicKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' });
  const data = Buffer.from(input);
  switch (alg) {
    case 'ES256':
    case 'ES384':
      return verify(alg === 'ES256' ? 'sha256' : 'sha384', data, { key, dsaEncoding: 'ieee-p1363' }, sig);
    case 'RS256':
      return verify('sha256', data, key, sig);
    case 'PS256':
      return verify('sha256', data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, sig);
    case 'EdDSA':
      return verify(null, data, key, sig);
    default:
      return false;
  }
}

/** The header value of one DPoP proof read and checked against its request; undefined when it is not a JWT at all. */
export function readProof(value: string | string[] | undefined, request: ProofRequest): Proof | undefined {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? (value[0] ?? '') : value;
  const [h, p, s] = text.split('.');
  if (h === undefined || p === undefined || s === undefined) return undefined;
  let header: unknown;
  let claims: unknown;
  try {
    header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isObject(header) || !isObject(claims)) return undefined;
  const problems: string[] = [];
  if (Array.isArray(value) && value.length > 1) problems.push('more than one DPoP header');
  if (header.typ !== 'dpop+jwt') problems.push(`typ ${JSON.stringify(header.typ ?? null)} is not dpop+jwt`);
  if (typeof header.alg !== 'string' || !DPOP_ALGS.includes(header.alg))
    problems.push(`alg ${JSON.stringify(header.alg ?? null)} is not one of ${DPOP_ALGS.join(', ')}`);
  let jkt: string | undefined;
  const jwk = header.jwk;
  if (!isObject(jwk)) problems.push('no jwk in the header');
  else if ('d' in jwk || 'p' in jwk) problems.push('the jwk carries a private key');
  else {
    try {
      if (verifies(header.alg, jwk, `${h}.${p}`, Buffer.from(s, 'base64url'))) jkt = thumbprint(jwk);
      else problems.push('the signature does not verify with the jwk of the header');
    } catch {
      problems.push('the jwk of the header is not a usable public key');
    }
  }
  if (typeof claims.jti !== 'string' || claims.jti === '') problems.push('no jti');
  if (claims.htm !== request.method)
    problems.push(`htm ${JSON.stringify(claims.htm ?? null)} is not ${request.method}`);
  const htu = request.url.replace(/[?#].*$/, '');
  let sameUri = false;
  try {
    sameUri = typeof claims.htu === 'string' && new URL(claims.htu).href.replace(/[?#].*$/, '') === new URL(htu).href;
  } catch {
    sameUri = false;
  }
  if (!sameUri) problems.push(`htu ${JSON.stringify(claims.htu ?? null)} is not ${htu}`);
  const now = request.now ?? Date.now() / 1000;
  if (typeof claims.iat !== 'number' || Math.abs(claims.iat - now) > IAT_WINDOW_S)
    problems.push(`iat ${JSON.stringify(claims.iat ?? null)} is not within ${IAT_WINDOW_S} s of the server's clock`);
  if (request.token !== undefined && claims.ath !== accessTokenHash(request.token))
    problems.push(claims.ath === undefined ? 'no ath for the access token' : 'ath is not the hash of the access token');
  return { header, claims, ...(jkt && { jkt }), problems };
}
