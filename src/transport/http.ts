import type http from 'node:http';
import type { Transcript } from '../session/transcript.js';
import { HttpTransport, type HttpOutcome, type HttpTarget } from './http-base.js';
import { failure, mediaType, send } from './http-client.js';
import { describeHeaders, redactUrl } from './secrets.js';

/** How long close() waits for the answer to its DELETE. */
const DELETE_WAIT_MS = 2000;

/**
 * Streamable HTTP (2025-03-26 and later): every message is a POST, answered with JSON or an SSE stream;
 * the session id and, after initialize, the protocol version go on every request; a standalone GET stream
 * carries what the server sends on its own; close() DELETEs the session.
 */
export class StreamableHttpTransport extends HttpTransport {
  readonly kind = 'http';
  protected readonly repliesOnPost = true;
  /** The negotiated version, sent as MCP-Protocol-Version once initialize told it. */
  protocolVersion: string | undefined;
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

  /**
   * A check's probe: a request with this session's headers changed by `overrides` (undefined removes one),
   * recorded in the transcript and read whole, its messages never delivered to the session.
   */
  probe(method: 'POST' | 'DELETE', label: string, overrides: Record<string, string | undefined> = {}, body?: string): Promise<HttpOutcome> {
    const base = method === 'POST' ? { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' } : {};
    const headers = Object.entries({ ...base, ...this.sessionHeaders(), ...overrides }).filter((e): e is [string, string] => e[1] !== undefined);
    return this.exchange(method, Object.fromEntries(headers), label, body);
  }

  protected postUrl(): URL {
    return this.target.url;
  }

  protected sessionHeaders(): Record<string, string> {
    return {
      ...this.target.headers,
      ...(this.sessionId !== undefined && { 'Mcp-Session-Id': this.sessionId }),
      ...(this.protocolVersion !== undefined && { 'MCP-Protocol-Version': this.protocolVersion }),
    };
  }

  /** The first session id the server gives (on the initialize response) is the session's. */
  protected onHead(res: http.IncomingMessage): void {
    const sid = res.headers['mcp-session-id'];
    if (this.sessionId === undefined && typeof sid === 'string') this.sessionId = sid;
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
      res = await send({ method: 'GET', url: this.target.url, headers: { Accept: 'text/event-stream', ...this.sessionHeaders() }, agent: this.agent });
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
