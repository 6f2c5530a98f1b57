// The MCP endpoint of the test server over Streamable HTTP: both eras (a session id issued at initialize up to
// 2025-11-25; stateless requests on 2026-07-28), JSON or SSE responses, the SSE stream a scenario drops and resumes.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  CANCELLED,
  type Conversation,
  DEFERRED,
  INITIALIZE_REVISIONS,
  META,
  type Outlet,
  STATELESS,
} from './conversation.js';
import { decodeHeader, headerAnnotationFault, headerParams, headerValue, valueAt } from './headers.js';
import { type RouteHandler, TestServer, answer } from './http.js';

/** The retry (ms) the dropped stream's priming event asks for. */
export const SSE_RETRY_MS = 500;

const jsonAnswer = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};
const isRequest = (m: unknown) =>
  m !== null &&
  typeof m === 'object' &&
  typeof (m as { method?: unknown }).method === 'string' &&
  'id' in (m as object);

/** What the endpoint saw of the HTTP session. */
export interface HttpState {
  sessionId?: string;
  /** DELETE requests to the endpoint. */
  deletes: number;
  /** The dropped stream: the call it held, and when it closed. */
  dropped?: { id: unknown; closedAt: number; resumedAt?: number; lastEventId?: string };
  /** Canary fetches (a `$ref` the client should not have dereferenced). */
  canaryHits: number;
  /** Session ids the server ended (a scenario with expireSession): requests carrying one get 404. */
  ended: string[];
  /** Each session id issued, with the exchange (its seq) of the initialize that got it. */
  issued: { exchange?: number; id: string }[];
}

/** A test server for one scenario's conversation. */
export function httpTestServer(conv: Conversation): { server: TestServer; state: HttpState } {
  const state: HttpState = { deletes: 0, canaryHits: 0, ended: [], issued: [] };
  const exchangeSeq = (req: IncomingMessage) => server.exchangeOf(req)?.seq;

  /** A refusal at the HTTP level: the status the revision names, with a JSON-RPC error body (recorded). */
  const refuse = (res: ServerResponse, xseq: number | undefined, r: Refusal, id: unknown) => {
    const reply = {
      jsonrpc: '2.0',
      id: id ?? null,
      error: { code: r.code, message: r.message, ...(r.data && { data: r.data }) },
    };
    conv.record('out', JSON.stringify(reply), xseq);
    jsonAnswer(res, r.status, reply);
  };

  const post: RouteHandler = async (req, body, res) => {
    const xseq = exchangeSeq(req);
    const frame = conv.record('in', body, xseq);
    if (frame.message === undefined)
      return jsonAnswer(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
    const messages = Array.isArray(frame.message) ? frame.message : [frame.message];
    const initializing = messages.some((m) => (m as { method?: unknown })?.method === 'initialize');
    const single = Array.isArray(frame.message) ? undefined : (frame.message as Record<string, unknown>);
    const headers: Record<string, string> = {};
    const refusal =
      conv.revision === STATELESS
        ? headerMismatch(req, single, conv)
        : sessionRefusal(req, state.sessionId, initializing, conv.revision);
    if (refusal) return refuse(res, xseq, refusal, single?.id);
    if (conv.revision !== STATELESS && initializing) {
      headers['mcp-session-id'] = state.sessionId = randomUUID();
      state.issued.push({ exchange: xseq, id: state.sessionId });
    }
    const requests = messages.filter(isRequest);
    if (requests.length === 0) {
      for (const m of messages) await conv.handle(m, undefined);
      const initialized = messages.some((m) => (m as { method?: unknown })?.method === 'notifications/initialized');
      // The scenario's server ends the session once it is set up, so the client's next request meets a 404.
      if (initialized && conv.scenario.expireSession && state.ended.length === 0 && state.sessionId) {
        state.ended.push(state.sessionId);
        state.sessionId = undefined;
      }
      return answer(res, { status: 202 });
    }
    const wantsStream =
      requests.length === 1 &&
      !Array.isArray(frame.message) &&
      String(req.headers.accept ?? '').includes('text/event-stream') &&
      streams(conv, requests[0]);
    if (!wantsStream) {
      const replies = [];
      for (const m of messages) {
        const reply = await conv.handle(m, undefined);
        if (reply && reply !== DEFERRED && reply !== CANCELLED) {
          conv.record('out', JSON.stringify(reply), xseq);
          replies.push(reply);
        }
      }
      const status = single && replies[0] ? statusOf(conv.revision, single, replies[0]) : 200;
      return jsonAnswer(res, status, Array.isArray(frame.message) ? replies : replies[0], headers);
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
    let event = 0;
    const out: Outlet = (m) => res.write(`id: ${xseq}-${event++}\nevent: message\ndata: ${JSON.stringify(m)}\n\n`);
    res.flushHeaders();
    const reply = await conv.handle(requests[0], out);
    // Cancelled by the client: the stream ends without a response.
    if (reply === CANCELLED) return void res.end();
    if (reply === DEFERRED) {
      // A primed event with its retry, then the stream closes before the result: the client must resume.
      res.write(`id: drop-1\nretry: ${SSE_RETRY_MS}\ndata: \n\n`);
      state.dropped = { id: (requests[0] as { id: unknown }).id, closedAt: performance.now() };
      return void res.end();
    }
    if (reply) conv.send(out, reply, xseq);
    res.end();
  };

  const get: RouteHandler = async (req, _body, res) => {
    const last = req.headers['last-event-id'];
    if (!state.dropped || state.dropped.resumedAt !== undefined || typeof last !== 'string')
      return answer(res, { status: 405, headers: { allow: 'POST, DELETE' } });
    state.dropped.resumedAt = performance.now();
    state.dropped.lastEventId = last;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const reply = { jsonrpc: '2.0', id: state.dropped.id, result: { content: [{ type: 'text', text: 'resumed' }] } };
    conv.record('out', JSON.stringify(reply), exchangeSeq(req));
    res.end(`id: drop-2\nevent: message\ndata: ${JSON.stringify(reply)}\n\n`);
  };

  const server = new TestServer(async (req, body, res) => {
    if (req.method === 'POST') return post(req, body, res);
    if (req.method === 'GET') return get(req, body, res);
    // 2026-07-28 Streamable HTTP › Earlier Streamable HTTP Revisions: GET or DELETE "respond with 405".
    if (conv.revision === STATELESS && req.method !== 'POST')
      return answer(res, { status: 405, headers: { allow: 'POST' } });
    if (req.method === 'DELETE') {
      // Counted with or without the session id: a missing id is the session-id check's finding.
      state.deletes++;
      return answer(res, { status: 200 });
    }
    answer(res, { status: 405, headers: { allow: 'GET, POST, DELETE' } });
  });
  if (conv.scenario.canaryPath)
    server.route('GET', conv.scenario.canaryPath, (_req, _body, res) => {
      state.canaryHits++;
      jsonAnswer(res, 200, { type: 'object' });
    });
  return { server, state };
}

/** A call whose tool talks to the client (or drops its stream) is answered over SSE. */
function streams(conv: Conversation, request: unknown): boolean {
  const r = request as { method: string; params?: { name?: unknown } };
  if (r.method !== 'tools/call') return false;
  const tool = conv.scenario.tools.find((t) => t.name === r.params?.name);
  return tool !== undefined && ['ask', 'elicit', 'sse-drop', 'hang'].includes(tool.does);
}

/** An HTTP-level refusal: its status and the JSON-RPC error that goes with it. */
interface Refusal {
  status: number;
  code: number;
  message: string;
  data?: Record<string, unknown>;
}

const header = (req: IncomingMessage, name: string) => {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

/**
 * Up to 2025-11-25 (Streamable HTTP › Session Management and Protocol Version Header): a request other than initialize
 * without the session id gets 400 (SHOULD), one with an id the server did not issue or has ended gets 404 (MUST), and
 * an invalid or unsupported MCP-Protocol-Version gets 400 (MUST).
 */
function sessionRefusal(
  req: IncomingMessage,
  sessionId: string | undefined,
  initializing: boolean,
  revision: string,
): Refusal | undefined {
  if (initializing) return undefined;
  const sid = header(req, 'mcp-session-id');
  if (sid === undefined)
    return { status: 400, code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' };
  if (sid !== sessionId) return { status: 404, code: -32001, message: 'Session not found' };
  const version = header(req, 'mcp-protocol-version');
  const supported = INITIALIZE_REVISIONS.filter((v) => v <= revision);
  if (version !== undefined && !supported.includes(version))
    return {
      status: 400,
      code: -32000,
      message: `Bad Request: unsupported MCP-Protocol-Version ${version} (supported: ${supported.join(', ')})`,
    };
  return undefined;
}

/** The standard headers of 2026-07-28 (Streamable HTTP › Request Metadata): a missing or mismatched one is -32020. */
function headerMismatch(
  req: IncomingMessage,
  message: Record<string, unknown> | undefined,
  conv: Conversation,
): Refusal | undefined {
  if (!message || typeof message.method !== 'string') return undefined;
  const mismatch = (what: string): Refusal => ({
    status: 400,
    code: -32020,
    message: `Header mismatch: ${what}; this server speaks ${STATELESS}`,
    data: { supported: [STATELESS] },
  });
  const params = (message.params ?? {}) as Record<string, unknown>;
  const meta = (params._meta ?? {}) as Record<string, unknown>;
  const version = header(req, 'mcp-protocol-version');
  if (version === undefined) return mismatch('MCP-Protocol-Version is missing');
  if (meta[META.version] !== undefined && version !== meta[META.version])
    return mismatch(`MCP-Protocol-Version ${version} is not the _meta protocol version ${String(meta[META.version])}`);
  if (header(req, 'mcp-method') !== message.method)
    return mismatch(`Mcp-Method ${JSON.stringify(header(req, 'mcp-method') ?? null)} is not ${message.method}`);
  if (['tools/call', 'prompts/get', 'resources/read'].includes(message.method)) {
    const name = message.method === 'resources/read' ? params.uri : params.name;
    const got = decodeHeader(header(req, 'mcp-name'));
    if (got !== String(name)) return mismatch(`Mcp-Name ${JSON.stringify(got ?? null)} is not ${String(name)}`);
  }
  if (message.method === 'tools/call') {
    const tool = conv.scenario.tools.find((t) => t.name === params.name);
    // A tool with invalid annotations mirrors nothing: calling it at all is the client's fault, judged elsewhere.
    const valid = tool && headerAnnotationFault(tool.inputSchema) === undefined;
    for (const { path, name } of valid ? headerParams(tool.inputSchema) : []) {
      const value = valueAt(params.arguments, path);
      const got = decodeHeader(header(req, `mcp-param-${name.toLowerCase()}`));
      if (value !== undefined && value !== null && got !== headerValue(value))
        return mismatch(`Mcp-Param-${name} ${JSON.stringify(got ?? null)} is not ${JSON.stringify(value)}`);
    }
  }
  return undefined;
}

/** The HTTP status that goes with a JSON-RPC answer on 2026-07-28 (200 up to 2025-11-25, which names none). */
function statusOf(revision: string, request: Record<string, unknown>, reply: Record<string, unknown>): number {
  if (revision !== STATELESS) return 200;
  const code = (reply.error as { code?: unknown } | undefined)?.code;
  // Streamable HTTP › Protocol Version Header: unsupported version 400, unknown method 404; Server Validation: 400
  // for -32020; 2026-07-28 basic › _meta: -32021 and a request missing its _meta fields (-32602) get 400.
  if (code === -32601) return 404;
  if (code === -32022 || code === -32020 || code === -32021) return 400;
  if (code === -32602 && missingMeta(request)) return 400;
  return 200;
}

const missingMeta = (request: Record<string, unknown>) => {
  const meta = ((request.params ?? {}) as Record<string, unknown>)._meta as Record<string, unknown> | undefined;
  return meta?.[META.version] === undefined || meta?.[META.capabilities] === undefined;
};
