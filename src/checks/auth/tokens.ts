import { SignJWT, base64url, decodeJwt, decodeProtectedHeader, generateKeyPair } from 'jose';

/** A credential the suite sends, and what it is, for messages (never the value itself). */
export interface Forged {
  what: string;
  /** The whole Authorization header value. */
  authorization: string;
  /** A malformed header may get 400 Bad Request instead of 401 (RFC 6750 §3.1 invalid_request). */
  malformed?: boolean;
}

/** What a token the suite signs claims, when it imitates a real one. */
export interface Claims {
  iss?: string;
  aud?: string;
  scope?: string;
}

const encode = (value: unknown) => base64url.encode(JSON.stringify(value));
const FIVE_MINUTES = 300;

/** A key pair of the suite's own: no server trusts it. */
const ownKey = (() => {
  let key: ReturnType<typeof generateKeyPair> | undefined;
  return () => (key ??= generateKeyPair('RS256'));
})();

/** Signs `payload` with the suite's own RS256 key (a key id the server cannot know). */
export async function signOwn(payload: Record<string, unknown>, header: Record<string, unknown> = {}): Promise<string> {
  const { privateKey } = await ownKey();
  return new SignJWT(payload)
    .setProtectedHeader({ typ: 'JWT', kid: 'mcp-conformance-own-key', ...header, alg: 'RS256' })
    .sign(privateKey);
}

const now = () => Math.floor(Date.now() / 1000);

/** Plausible claims: the issuer and audience the server names, valid for five minutes. */
export function plausible({ iss, aud, scope }: Claims): Record<string, unknown> {
  const t = now();
  return {
    ...(iss && { iss }),
    ...(aud && { aud }),
    sub: 'mcp-conformance',
    iat: t,
    nbf: t,
    exp: t + FIVE_MINUTES,
    ...(scope && { scope }),
    jti: crypto.randomUUID(),
  };
}

/** Tokens no server may accept (requirements auth.token.invalid-rejected), needing no secret to make. */
export async function forgedTokens(claims: Claims): Promise<Forged[]> {
  const payload = encode(plausible(claims));
  const hs256 = await new SignJWT(plausible(claims))
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode('secret'));
  return [
    { what: 'a garbage bearer token', authorization: 'Bearer mcp-conformance-garbage-token' },
    { what: 'an empty bearer token', authorization: 'Bearer ', malformed: true },
    { what: 'a non-Bearer scheme', authorization: 'Basic bWNwLWNvbmZvcm1hbmNlOnBhc3N3b3Jk', malformed: true },
    {
      what: 'an unsigned JWT (RS256 header, no signature)',
      authorization: `Bearer ${encode({ alg: 'RS256', typ: 'JWT' })}.${payload}.`,
    },
    { what: 'a JWT with alg none', authorization: `Bearer ${encode({ alg: 'none', typ: 'JWT' })}.${payload}.` },
    { what: 'an HS256 JWT signed with the guessed secret "secret"', authorization: `Bearer ${hs256}` },
    { what: "an RS256 JWT signed by the suite's own key", authorization: `Bearer ${await signOwn(plausible(claims))}` },
  ];
}

/** Whether a token is a JWT the suite can read (three dot-separated parts, a JSON header and payload). */
function readJwt(
  token: string,
): { header: Record<string, unknown>; payload: Record<string, unknown>; parts: string[] } | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    return {
      header: decodeProtectedHeader(token) as Record<string, unknown>,
      payload: decodeJwt(token) as Record<string, unknown>,
      parts,
    };
  } catch {
    return undefined;
  }
}

/**
 * Copies of the user's token that no server may accept: one signature byte changed, the signature stripped, re-signed
 * with alg none, re-signed by the suite's key. An opaque token only gets the changed byte (its last character).
 */
export async function tamperedTokens(token: string): Promise<Forged[]> {
  const flip = (s: string) => s.slice(0, -2) + (s.at(-2) === 'A' ? 'B' : 'A') + s.slice(-1);
  const jwt = readJwt(token);
  if (!jwt) return [{ what: 'the token with one character changed', authorization: `Bearer ${flip(token)}` }];
  const [h, p, sig] = jwt.parts as [string, string, string];
  // The second-to-last base64url character carries whole signature bits (the last may be padding bits only).
  return [
    { what: 'the token with one signature byte changed', authorization: `Bearer ${h}.${p}.${flip(sig)}` },
    { what: 'the token with its signature stripped', authorization: `Bearer ${h}.${p}.` },
    {
      what: 'the token re-signed with alg none',
      authorization: `Bearer ${encode({ ...jwt.header, alg: 'none' })}.${p}.`,
    },
    {
      what: "the token re-signed by the suite's own key",
      authorization: `Bearer ${await signOwn(jwt.payload, { ...jwt.header })}`,
    },
  ];
}

/** The token of an `Authorization: Bearer …` value. */
export const bearerToken = (authorization: string | undefined) => /^bearer\s+(\S+)/i.exec(authorization ?? '')?.[1];
