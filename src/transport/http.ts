import type http from 'node:http';
import type { Transcript } from '../transcript.js';
import { HttpTransport, type HttpOutcome, type HttpTarget } from './http-base.js';
import { failure, mediaType, send } from './http-client.js';
import { describeHeaders, redactUrl } from './secrets.js';
import { isObject } from '../json.js';
import { isHeaderSafe } from '../headers.js';
import type { ParamHeaders } from './transport.js';

/** How long close() waits for the answer to its DELETE. */
const DELETE_WAIT_MS = 2000;
/** The methods whose target (`params.name` or `params.uri`) goes in the Mcp-Name header. */
const NAMED = new Set(['tools/call', 'prompts/get', 'resources/read']);
/** The Tasks extension's methods, whose target is `params.taskId` (tasks#streamable-http-routing-headers). */
const TASK_NAMED = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/**
 * A mirrored header value: as is when header-safe, else (or when it looks encoded) the Base64 sentinel form the spec
 * gives Mcp-Name. A method name no header can carry (a check's made-up one) is sent that way too, not refused.
 */
function headerValue(value: string): string {
  const sentinel = value.startsWith('=?base64?') && value.endsWith('?=');
  return isHeaderSafe(value) && !sentinel ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/**
 * The request metadata headers of the stateless wire (2026-07-28, streamable-http#request-metadata), mirrored from
 * the body: the version its `_meta` names (else the session's), its method and target. Undefined when neither names
 * a version (the initialize wire).
 */
function requestMetadata(
  body: string,
  sessionVersion: string | undefined,
  paramHeaders?: ParamHeaders,
): Record<string, string> | undefined {
  let m: unknown;
  try {
    m = JSON.parse(body);
  } catch {
    m = undefined; // raw input: only the session's version to send
  }
  const message = isObject(m) ? m : {};
  const params = isObject(message.params) ? message.params : {};
  const named = isObject(params._meta) ? params._meta['io.modelcontextprotocol/protocolVersion'] : undefined;
  const version = typeof named === 'string' ? named : sessionVersion;
  if (version === undefined) return undefined;
  const method = message.method;
  const target = typeof method === 'string' && TASK_NAMED.has(method) ? params.taskId : (params.name ?? params.uri);
  // A tool's x-mcp-header arguments go in Mcp-Param-{Name} headers (custom headers from tool parameters); absent or
  // null ones in none, booleans and integers as their JSON text.
  const mirrored = method === 'tools/call' && typeof target === 'string' ? paramHeaders?.get(target) : undefined;
  const args = isObject(params.arguments) ? params.arguments : {};
  const paramValues = Object.entries(mirrored ?? {})
    .filter(([arg]) => ['string', 'number', 'boolean'].includes(typeof args[arg]))
    .map(([arg, header]) => [`Mcp-Param-${header}`, headerValue(String(args[arg]))]);
  return {
    ...Object.fromEntries(paramValues),
    'MCP-Protocol-Version': version,
    ...(typeof method === 'string' && { 'Mcp-Method': headerValue(method) }),
    ...(typeof method === 'string' &&
      (NAMED.has(method) || TASK_NAMED.has(method)) &&
      typeof target === 'string' && { 'Mcp-Name': headerValue(target) }),
  };
}

/**
 * Streamable HTTP (2025-03-26 and later): every message is a POST, answered with JSON or an SSE stream;
 * the session id and, after initialize, the protocol version go on every request; a standalone GET stream
 * carries what the server sends on its own; close() DELETEs the session. On the stateless wire (2026-07-28) a
 * request carries the headers that mirror its body instead, and there is no session, GET stream or DELETE.
 */
export class StreamableHttpTransport extends HttpTransport {
  readonly kind = 'http';
  protected readonly repliesOnPost = true;
  /** The negotiated version, sent as MCP-Protocol-Version once initialize told it. */
  protocolVersion: string | undefined;
  /** The stateless wire's version: set, every request carries the headers mirroring its body, and none a session id. */
  private statelessVersion: string | undefined;
  /** The head of the standalone GET stream's response; undefined when none came before the session ended. */
  readonly listening: Promise<HttpOutcome | undefined>;
  private heard!: (head: HttpOutcome | undefined) => void;

  constructor(target: HttpTarget, transcript: Transcript) {
    super(target, transcript);
    this.listening = new Promise((resolve) => (this.heard = resolve));
    const headers = Object.keys(target.headers).length > 0 ? `; headers ${describeHeaders(target.headers)}` : '';
    this.note(`Streamable HTTP ${redactUrl(String(target.url))}${headers}`);
  }

  /** Sent from now on; the first call also opens the GET stream (the session exists once initialize is answered). */
  setProtocolVersion(version: string): void {
    const first = this.protocolVersion === undefined;
    this.protocolVersion = version;
    if (first) void this.listen();
  }

  /** The user's request headers (credentials): the authorization checks send requests without them, or in their place. */
  get userHeaders(): Readonly<Record<string, string>> {
    return this.target.headers;
  }

  setStatelessVersion(version: string | undefined): void {
    this.statelessVersion = version;
  }

  private paramHeaders?: ParamHeaders;

  setParamHeaders(headers: ParamHeaders): void {
    this.paramHeaders = headers;
  }

  /**
   * A check's probe: a request with this session's headers changed by `overrides` (undefined removes one),
   * recorded in the transcript and read whole (for at most `waitMs`, or until `stop` settles), its messages never
   * delivered to the session.
   */
  probe(
    method: 'GET' | 'POST' | 'DELETE',
    label: string,
    overrides: Record<string, string | undefined> = {},
    body?: string,
    waitMs?: number,
    stop?: Promise<unknown>,
  ): Promise<HttpOutcome> {
    const accept = {
      GET: { Accept: 'text/event-stream' },
      POST: { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' },
      DELETE: {},
    }[method];
    const headers = Object.entries({ ...accept, ...this.sessionHeaders(body), ...overrides }).filter(
      (e): e is [string, string] => e[1] !== undefined,
    );
    return this.exchange(method, Object.fromEntries(headers), label, body, waitMs, stop);
  }

  protected postUrl(): URL {
    return this.target.url;
  }

  protected sessionHeaders(body?: string): Record<string, string> {
    const stateless = requestMetadata(body ?? '', this.statelessVersion, this.paramHeaders);
    if (stateless) return { ...this.target.headers, ...stateless };
    return {
      ...this.target.headers,
      ...(this.sessionId !== undefined && { 'Mcp-Session-Id': this.sessionId }),
      ...(this.protocolVersion !== undefined && { 'MCP-Protocol-Version': this.protocolVersion }),
    };
  }

  /** The first session id the server gives (on the initialize response) is the session's; the stateless wire has none. */
  protected onHead(res: http.IncomingMessage, sent: Record<string, string>): void {
    const sid = res.headers['mcp-session-id'];
    if (
      this.sessionId === undefined &&
      typeof sid === 'string' &&
      this.statelessVersion === undefined &&
      sent['Mcp-Method'] === undefined
    )
      this.sessionId = sid;
  }

  protected onControlEvent(): boolean {
    return false;
  }

  protected async end(): Promise<void> {
    this.heard(undefined);
    if (this.sessionId === undefined) return;
    const deleted = this.exchange('DELETE', this.sessionHeaders(), 'end of session');
    await Promise.race([deleted, new Promise((resolve) => setTimeout(resolve, DELETE_WAIT_MS).unref())]);
  }

  /** The standalone GET stream: server-initiated messages arrive here; 405 means the server offers none. */
  private async listen(): Promise<void> {
    let res: http.IncomingMessage;
    try {
      res = await send({
        method: 'GET',
        url: this.target.url,
        headers: { Accept: 'text/event-stream', ...this.sessionHeaders() },
        agent: this.agent,
      });
    } catch (err) {
      if (!this.closed) this.note(`GET failed: ${failure(err)}`);
      return this.heard(undefined);
    }
    this.note(this.describe('GET', res));
    this.heard({ status: res.statusCode, contentType: mediaType(res), headers: res.headers, bytes: 0, body: '' });
    if (res.statusCode !== 200 || mediaType(res) !== 'text/event-stream') {
      res.resume();
      return;
    }
    await this.readStream(res);
    if (!this.closed) this.note('GET stream ended by the server');
  }
}
