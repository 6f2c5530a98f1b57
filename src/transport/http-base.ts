import type http from 'node:http';
import type { TranscriptEntry } from '../schema/generated/report.js';
import type { Transcript } from '../transcript.js';
import { Feed, Once } from './emitter.js';
import { failure, mediaType, readBody, send, sessionAgent } from './http-client.js';
import type { ServerProcess } from './server-process.js';
import { SseParser, type SseEvent } from './sse-parser.js';
import { JsonValues } from './json-values.js';
import { StringDecoder } from 'node:string_decoder';
import type { ExitInfo, InboundLine, Transport, TransportKind } from './transport.js';
import { isObject } from '../json.js';

type RequestId = string | number;

/** Bodies and SSE events larger than this are refused (the stdio transport's line limit). */
const MAX_BYTES = 64 * 1024 * 1024;
/** Characters of a non-message body shown in the transcript. */
const SNIPPET = 200;
/**
 * Code of the error replies the transport makes up for requests the server will never answer: JSON-RPC's
 * implementation-defined server error, which SDKs use for HTTP-level failures too (requirements §4.5).
 */
export const TRANSPORT_ERROR = -32000;

/** Where an HTTP transport talks to, and with what. */
export interface HttpTarget {
  url: URL;
  /** The user's extra request headers (auth): sent on every request, shown as *** everywhere. */
  headers: Record<string, string>;
  /** The server process this run started, if any: its stderr and its death belong to every session. */
  server?: ServerProcess;
}

/** One message this transport POSTed, and how the server answered it. */
export interface Post {
  sent: TranscriptEntry;
  /** It held a request (expects an answer); otherwise a notification or a response. */
  request: boolean;
  outcome: Promise<HttpOutcome>;
  /** The response head once it came, and the body bytes so far: what came of a body that has not ended (yet). */
  head?: { status: number; contentType: string; bytes: number };
}

/** How the server answered one HTTP request. */
export interface HttpOutcome {
  /** Undefined when no response came at all (then `error` says why). */
  status?: number;
  /** The media type, without parameters ('' when absent). */
  contentType: string;
  headers: http.IncomingHttpHeaders;
  /** Body bytes; for an SSE stream, the whole stream's. */
  bytes: number;
  /** The body's text (up to the size limit), unless it was an SSE stream read as messages. */
  body: string;
  error?: string;
  /** A probe with a deadline stopped reading there: the response (a stream left open) was still coming. */
  cut?: boolean;
}

const items = (json: unknown): unknown[] => (Array.isArray(json) ? json : [json]);
const clip = (text: string) => (text.length > SNIPPET ? `${text.slice(0, SNIPPET)}…` : text);

/** What a POST body holds, as postNow needs to know it. */
interface BodyKind {
  /** The ids of its requests (responses carry ids too, but expect no answer). */
  ids: RequestId[];
  /** Only notifications and responses (what gets 202; an HTTP error to it answers nothing). */
  input: boolean;
  /** One request whose id no response can echo (`"id": null`): what comes back on its POST answers it. */
  unreadableId: boolean;
}

function bodyKind(text: string): BodyKind {
  let all: unknown[];
  try {
    all = items(JSON.parse(text));
  } catch {
    return { ids: [], input: false, unreadableId: false };
  }
  const isRequestId = (v: unknown): v is RequestId => typeof v === 'string' || typeof v === 'number';
  const ids = all.flatMap((m) =>
    isObject(m) && isRequestId(m.id) && !('result' in m) && !('error' in m) ? [m.id] : [],
  );
  const input =
    all.length > 0 &&
    all.every((m) => isObject(m) && (typeof m.method === 'string' ? !('id' in m) : 'result' in m || 'error' in m));
  const unreadableId =
    all.length === 1 &&
    isObject(all[0]) &&
    typeof all[0].method === 'string' &&
    'id' in all[0] &&
    !isRequestId(all[0].id);
  return { ids, input, unreadableId };
}

function parse(text: string): Pick<InboundLine, 'json' | 'problem'> {
  try {
    return { json: JSON.parse(text) };
  } catch (e) {
    return { problem: `not JSON: ${clip((e as Error).message)}` };
  }
}

/** A JSON-RPC answer, or a batch of them: what the body of an HTTP error status may hold (any other JSON is no message). */
const isJsonRpcBody = (json: unknown) =>
  Array.isArray(json) || (isObject(json) && (isObject(json.error) || 'result' in json));

/**
 * What Streamable HTTP and legacy HTTP+SSE share: POSTing messages (in order where order matters), reading
 * JSON and SSE answers into inbound lines, recording every HTTP exchange, and making up an error reply for a
 * request that will never be answered, so no check waits for a timeout (decided in the README: an HTTP
 * error without a JSON-RPC body becomes error -32000 whose message names the status).
 */
export abstract class HttpTransport implements Transport {
  abstract readonly kind: TransportKind;
  /** Whether answers come in POST responses (Streamable HTTP) or only on the SSE stream (legacy). */
  protected abstract readonly repliesOnPost: boolean;
  /** The session id to send, once the server gave one (Streamable HTTP only). */
  sessionId: string | undefined;
  /** Every SSE event id seen in this session, on any of its streams, in order. */
  readonly eventIds: string[] = [];
  /** Every message POSTed in this session, in order. */
  readonly posts: Post[] = [];
  protected readonly agent: http.Agent;
  private readonly lines = new Feed<InboundLine>();
  private readonly exit = new Once<ExitInfo>();
  /** Notifications and responses are sent one after another: the next POST waits for their answer's head. */
  private order: Promise<void> = Promise.resolve();
  private closing: Promise<ExitInfo> | undefined;

  constructor(
    protected readonly target: HttpTarget,
    protected readonly transcript: Transcript,
  ) {
    this.agent = sessionAgent(target.url);
    target.server?.onExit((exit) => this.exit.fire(exit));
  }

  get url(): URL {
    return this.target.url;
  }

  get exited(): ExitInfo | undefined {
    return this.exit.value;
  }

  send(text: string): TranscriptEntry {
    return this.post(text);
  }

  /** The text is the POST body exactly as given. */
  sendRaw(text: string): TranscriptEntry {
    return this.post(text);
  }

  onLine(listener: (line: InboundLine) => void): void {
    this.lines.on(listener);
  }

  onExit(listener: (exit: ExitInfo) => void): void {
    this.exit.on(listener);
  }

  stderrTail(lines = 20): string {
    return this.target.server?.stderrTail(lines) ?? '';
  }

  close(): Promise<ExitInfo> {
    return (this.closing ??= this.shutdown());
  }

  /** Where messages are POSTed. */
  protected abstract postUrl(): URL;
  /** Headers of a request besides Accept and Content-Type (the user's, the session's, those mirroring `body`). */
  protected abstract sessionHeaders(body?: string): Record<string, string>;
  /** Ends the session on the server's side, before the connections are dropped. */
  protected abstract end(): Promise<void>;
  /** Sees each response head first, with the request's headers (Streamable HTTP takes the session id from it). */
  protected abstract onHead(res: http.IncomingMessage, sent: Record<string, string>): void;
  /** Handles an SSE event that is not a message (legacy: `endpoint`); true when it did. */
  protected abstract onControlEvent(event: SseEvent): boolean;

  protected get closed(): boolean {
    return this.closing !== undefined;
  }

  protected note(text: string): TranscriptEntry {
    return this.transcript.add('event', text);
  }

  /** The server side is gone (legacy: its stream ended): pending requests fail at once. */
  protected lost(): void {
    this.exit.fire({ code: null, signal: null, how: 'crashed' });
  }

  /** `POST → 200 OK; text/event-stream; mcp-session-id: …` (the session id only when it is news). */
  protected describe(method: string, res: http.IncomingMessage, label?: string): string {
    const parts = [`${method}${label ? ` (${label})` : ''} → ${res.statusCode} ${res.statusMessage ?? ''}`.trimEnd()];
    if (res.headers['content-type']) parts.push(res.headers['content-type']);
    const sid = res.headers['mcp-session-id'];
    if (sid !== undefined && sid !== this.sessionId) parts.push(`mcp-session-id: ${String(sid)}`);
    return parts.join('; ');
  }

  /**
   * One request outside the message flow (a check's probe): recorded, its body read whole, never delivered. With
   * `waitMs`, reading stops that long after sending, or when `stop` settles if sooner (`cut` says it did), so streams
   * left open can be watched.
   */
  protected async exchange(
    method: 'GET' | 'POST' | 'DELETE',
    headers: Record<string, string>,
    label: string,
    body?: string,
    waitMs?: number,
    stop?: Promise<unknown>,
  ): Promise<HttpOutcome> {
    const deadline = new AbortController();
    let cut = false;
    let read = false;
    const end = () => read || ((cut = true), deadline.abort());
    const timer = waitMs === undefined ? undefined : setTimeout(end, waitMs);
    if (waitMs !== undefined) void stop?.then(end);
    let res: http.IncomingMessage;
    try {
      res = await send({ method, url: this.target.url, headers, body, agent: this.agent, signal: deadline.signal });
    } catch (err) {
      read = true;
      clearTimeout(timer);
      const why = cut ? 'no response head before the watch ended' : failure(err);
      this.note(`${method} (${label}) failed: ${why}`);
      return { contentType: '', headers: {}, bytes: 0, body: '', error: why };
    }
    // A GET stream may stay open for good: unless it is watched, its head is what a probe judges.
    if (method === 'GET' && mediaType(res) === 'text/event-stream' && waitMs === undefined) {
      res.destroy();
      this.note(this.describe(method, res, label));
      return { status: res.statusCode, contentType: mediaType(res), headers: res.headers, bytes: 0, body: '' };
    }
    const { text, bytes } = await readBody(res, MAX_BYTES);
    read = true;
    clearTimeout(timer);
    this.note(
      `${this.describe(method, res, label)}${text ? `: ${clip(text)}` : ''}${cut ? ' (still open when the watch ended)' : ''}`,
    );
    return {
      status: res.statusCode,
      contentType: mediaType(res),
      headers: res.headers,
      bytes,
      body: text,
      ...(cut ? { cut } : {}),
    };
  }

  /** Reads an SSE stream: records each event, delivers messages, notes which requests they answered. */
  protected async readStream(res: http.IncomingMessage, answered?: Set<string>, answers?: null): Promise<number> {
    let bytes = 0;
    const parser = new SseParser((event) => this.onEvent(event, answered, answers), MAX_BYTES);
    try {
      for await (const chunk of res as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        parser.push(chunk);
      }
      parser.end();
    } catch (err) {
      if (!this.closed) this.note(`SSE stream broken: ${err instanceof RangeError ? err.message : failure(err)}`);
      res.destroy();
    }
    return bytes;
  }

  private onEvent(event: SseEvent, answered?: Set<string>, answers?: null): void {
    if (event.id !== undefined) this.eventIds.push(event.id);
    const fields = [
      event.id !== undefined && `id ${JSON.stringify(event.id)}`,
      event.type !== 'message' && `event ${event.type}`,
      event.retry !== undefined && `retry ${event.retry}`,
    ];
    const shown = fields.filter(Boolean).join(', ');
    this.note(`SSE event${shown ? ` (${shown})` : ''}${event.data.trim() === '' ? ', no data' : ''}`);
    if (this.onControlEvent(event) || event.type !== 'message' || event.data.trim() === '') return;
    this.deliver(event.data, parse(event.data), answered, answers);
  }

  /**
   * Hands a message (SSE event data, or a JSON body) to the session; notes the requests it answers. `answers`: the
   * request of the POST it came back on (null: one whose id could not be echoed).
   */
  private deliver(
    text: string,
    parsed: Pick<InboundLine, 'json' | 'problem'>,
    answered?: Set<string>,
    answers?: RequestId | null,
    httpError?: InboundLine['httpError'],
  ): void {
    const line: InboundLine = { entry: this.transcript.add('recv', text), ...parsed, ...(httpError && { httpError }) };
    if (answers !== undefined) {
      line.answers = answers;
      if (answers !== null) answered?.add(String(answers));
    }
    for (const m of items(line.json)) {
      if (isObject(m) && ('result' in m || 'error' in m) && (typeof m.id === 'string' || typeof m.id === 'number'))
        answered?.add(String(m.id));
    }
    this.lines.emit(line);
  }

  private post(text: string): TranscriptEntry {
    if (this.exited || this.closed) return this.note(`write ignored (session ended): ${clip(text)}`);
    const entry = this.transcript.add('send', text);
    const kind = bodyKind(text);
    let headArrived!: () => void;
    const head = new Promise<void>((resolve) => (headArrived = resolve));
    const record: Post = {
      sent: entry,
      request: kind.ids.length > 0,
      outcome: Promise.resolve({ contentType: '', headers: {}, bytes: 0, body: '' }),
    };
    record.outcome = this.order.then(() => this.postNow(text, kind, headArrived, record));
    if (kind.ids.length === 0) this.order = head;
    this.posts.push(record);
    return entry;
  }

  private async postNow(
    text: string,
    { ids, input, unreadableId }: BodyKind,
    headArrived: () => void,
    record: Post,
  ): Promise<HttpOutcome> {
    const answered = new Set<string>();
    let res: http.IncomingMessage;
    let headers: Record<string, string>;
    try {
      headers = {
        Accept: 'application/json, text/event-stream',
        'Content-Type': 'application/json',
        ...this.sessionHeaders(text),
      };
      res = await send({ method: 'POST', url: this.postUrl(), headers, body: text, agent: this.agent });
    } catch (err) {
      headArrived();
      if (!this.closed)
        this.answerRest(ids, answered, this.note(`POST failed: ${failure(err)}`), `no HTTP response: ${failure(err)}`);
      return { contentType: '', headers: {}, bytes: 0, body: '', error: failure(err) };
    }
    headArrived();
    const head = this.note(this.describe('POST', res));
    this.onHead(res, headers);
    const status = res.statusCode ?? 0;
    const contentType = mediaType(res);
    const outcome: HttpOutcome = { status, contentType, headers: res.headers, bytes: 0, body: '' };
    record.head = { status, contentType, bytes: 0 };
    // The body of an HTTP error to a notification or response says why it was refused; it answers nothing.
    const messages = !(status >= 400 && input) && (this.repliesOnPost || status >= 400);
    // What answers a request with id null (a probe's) came back on its POST: it answers that request, whatever its id.
    const tied = unreadableId && this.repliesOnPost ? null : undefined;
    if (contentType === 'text/event-stream' && status < 300 && messages) {
      outcome.bytes = await this.readStream(res, answered, tied);
    } else if (status < 300 && messages) {
      Object.assign(outcome, await this.readMessages(res, record.head, ids, answered, tied));
    } else {
      const { text: body, bytes } = await readBody(res, MAX_BYTES);
      Object.assign(outcome, { body, bytes });
      if (messages && body.trim() !== '') this.deliverBody(body, status, ids, answered, tied, record.sent);
      else if (status >= 300 && body.trim() !== '') this.note(`body: ${clip(body)}`);
    }
    if (!this.closed && messages) {
      const why =
        status >= 400
          ? `HTTP ${status} without a JSON-RPC response`
          : `HTTP ${status} ${contentType || 'without a content type'} ended without the response to this request`;
      this.answerRest(ids, answered, head, outcome.body.trim() ? `${why}: ${clip(outcome.body)}` : why);
    }
    return outcome;
  }

  /**
   * Reads a body of messages as it arrives: each JSON object or array is delivered when it is complete, so one sent
   * in a body that stays open is seen (what remains at the end, not JSON, is noted). Returns the whole body.
   */
  private async readMessages(
    res: http.IncomingMessage,
    head: NonNullable<Post['head']>,
    ids: RequestId[],
    answered: Set<string>,
    tied?: null,
  ): Promise<{ body: string; bytes: number }> {
    const values = new JsonValues();
    const decoder = new StringDecoder('utf8');
    const parts: string[] = [];
    let kept = 0;
    const take = (text: string) => {
      parts.push(text);
      for (const value of values.push(text)) this.deliver(value, parse(value), answered, tied);
    };
    try {
      for await (const chunk of res as AsyncIterable<Buffer>) {
        head.bytes += chunk.length;
        if (kept >= MAX_BYTES) continue;
        const piece = chunk.subarray(0, MAX_BYTES - kept);
        kept += piece.length;
        take(decoder.write(piece));
      }
    } catch {
      // The connection broke mid-body: judge what arrived.
    }
    take(decoder.end());
    const rest = values.rest();
    if (rest.trim() !== '') this.deliverBody(rest, head.status, ids, answered, tied);
    return { body: parts.join(''), bytes: head.bytes };
  }

  /**
   * A JSON body is messages whatever its content type says (the content-type check judges that). The JSON-RPC body of
   * an HTTP error status answers the POST that carried it, whatever its id (requirements §4.5: it "MAY comprise a
   * JSON-RPC error response that has no id"): its request when the POST held one, else none (null).
   */
  private deliverBody(
    body: string,
    status: number,
    ids: RequestId[],
    answered: Set<string>,
    tied?: null,
    post?: TranscriptEntry,
  ): void {
    const parsed = parse(body);
    if (parsed.problem) {
      this.note(`body: ${clip(body)}`);
      return;
    }
    if (status < 400 || !post) {
      this.deliver(body, parsed, answered, tied);
      return;
    }
    const httpError = { status, post: post.seq };
    if (!isJsonRpcBody(parsed.json)) {
      this.lines.emit({
        entry: this.transcript.add('recv', body),
        problem: `the JSON body of HTTP ${status} is no JSON-RPC message`,
        httpError,
      });
      return;
    }
    this.deliver(body, parsed, answered, ids.length === 1 ? ids[0] : null, httpError);
  }

  /** Makes up an error reply for every request of the POST that got no answer. */
  private answerRest(ids: RequestId[], answered: Set<string>, entry: TranscriptEntry, why: string): void {
    for (const id of ids.filter((i) => !answered.has(String(i)))) {
      this.lines.emit({
        entry,
        json: { jsonrpc: '2.0', id, error: { code: TRANSPORT_ERROR, message: why } },
        synthetic: true,
      });
    }
  }

  private async shutdown(): Promise<ExitInfo> {
    await this.end();
    this.agent.destroy();
    this.exit.fire({ code: null, signal: null, how: 'closed' });
    return this.exit.value!;
  }
}
