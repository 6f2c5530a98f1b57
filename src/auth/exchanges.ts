// Every HTTP exchange a client under test has with the suite's protected resource and authorization servers, and how
// a finding names one: method, URL, status and the headers and parameters that matter, with every secret as ***.
import type { IncomingHttpHeaders } from 'node:http';
import { REDACTED, redact } from '../transport/secrets.js';
import type { Proof } from './dpop.js';

/** Which of the run's servers answered (the identity provider: enterprise-managed authorization only). */
export type Role = 'resource' | 'authorization' | 'identity';

export interface HttpExchange {
  seq: number;
  /** Milliseconds since the run's servers started. */
  t: number;
  role: Role;
  method: string;
  url: string;
  status: number;
  /** Request headers, names lower-case (as received). */
  headers: IncomingHttpHeaders;
  /** The form or JSON body, parsed (token and registration requests; MCP messages). */
  body?: unknown;
  /** Response headers that matter to a finding (WWW-Authenticate, Location, DPoP-Nonce). */
  answer: Record<string, string>;
  /** The DPoP proof the request carried, read and checked when it came (RFC 9449 §4.3). */
  dpop?: Proof;
  /** The response body, when it is JSON. */
  reply?: unknown;
}

/** Parameter and field names whose values are credentials wherever they appear. */
const SECRET_PARAMS = new Set([
  'code',
  'code_verifier',
  'client_secret',
  'access_token',
  'refresh_token',
  'id_token',
  'assertion',
  'client_assertion',
  'subject_token',
  'token',
]);
/** Request headers a finding shows: the rest is noise. */
const SHOWN = ['authorization', 'content-type', 'mcp-protocol-version', 'dpop'];

/** A record of exchanges and the secrets seen in them, to hide on the way out. */
export class ExchangeLog {
  readonly exchanges: HttpExchange[] = [];
  private readonly secrets = new Set<string>();
  private readonly start = Date.now();

  /** A value the servers issued or received that must never appear in output (tokens, codes, client secrets). */
  secret(value: string | undefined): void {
    if (value && value.length >= 4) this.secrets.add(value);
  }

  add(e: Omit<HttpExchange, 'seq' | 't'>): HttpExchange {
    const exchange = { ...e, seq: this.exchanges.length + 1, t: Date.now() - this.start };
    this.exchanges.push(exchange);
    return exchange;
  }

  /** Every secret the run saw, longest first (so a prefix never leaves a tail). */
  get secretList(): string[] {
    return [...this.secrets].sort((a, b) => b.length - a.length);
  }

  /** `value` with every secret the run saw as ***. */
  hide<T>(value: T): T {
    return redact(value, this.secretList);
  }

  /**
   * One line naming an exchange: `POST http://127.0.0.1:5/token → 200 [Authorization: Basic ***] {grant_type=…,
   * code=***}`, and the WWW-Authenticate or Location of the answer.
   */
  describe(e: HttpExchange): string {
    const headers = SHOWN.flatMap((name) => {
      const v = e.headers[name];
      if (v === undefined) return [];
      const text = Array.isArray(v) ? v.join(', ') : v;
      return [`${name}: ${name === 'authorization' || name === 'dpop' ? hideCredential(text) : text}`];
    });
    const answer = Object.entries(e.answer).map(([k, v]) => `${k}: ${k === 'location' ? hideUrl(v) : v}`);
    const body = e.body !== undefined && !isMcp(e.body) ? ` ${JSON.stringify(hideParams(e.body))}` : '';
    const mcp = isMcp(e.body) ? ` (${mcpMethod(e.body)})` : '';
    return this.hide(
      `#${e.seq} ${e.method} ${hideUrl(e.url)}${mcp}${headers.length ? ` [${headers.join('; ')}]` : ''}${body} → ${e.status}${answer.length ? ` [${answer.join('; ')}]` : ''}`,
    );
  }
}

/** `Bearer abc` → `Bearer ***`. */
export function hideCredential(value: string): string {
  const m = /^(\S+)\s+\S/.exec(value);
  return m ? `${m[1]} ${REDACTED}` : REDACTED;
}

/** A URL whose secret query parameters (code, access_token, …) read ***. */
export function hideUrl(url: string): string {
  try {
    const u = new URL(url);
    for (const name of [...u.searchParams.keys()]) if (SECRET_PARAMS.has(name)) u.searchParams.set(name, REDACTED);
    return u.toString().replaceAll('%2A%2A%2A', REDACTED);
  } catch {
    return url;
  }
}

function hideParams(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, SECRET_PARAMS.has(k) ? REDACTED : v]));
}

function isMcp(body: unknown): boolean {
  const first = Array.isArray(body) ? body[0] : body;
  return typeof first === 'object' && first !== null && (first as { jsonrpc?: unknown }).jsonrpc === '2.0';
}

function mcpMethod(body: unknown): string {
  const items = Array.isArray(body) ? body : [body];
  return items.map((m) => (m as { method?: string }).method ?? 'response').join(', ');
}
