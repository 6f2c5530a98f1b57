// The MCP endpoint of the test server over Streamable HTTP: both eras (a session id issued at initialize up to
// 2025-11-25; stateless requests on 2026-07-28), JSON or SSE responses, the SSE stream a scenario drops and resumes.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Conversation, DEFERRED, type Outlet, STATELESS } from './conversation.js';
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
}

/** A test server for one scenario's conversation. */
export function httpTestServer(conv: Conversation): { server: TestServer; state: HttpState } {
  const state: HttpState = { deletes: 0, canaryHits: 0 };
  const exchangeSeq = (req: IncomingMessage) => server.exchangeOf(req)?.seq;

  const post: RouteHandler = async (req, body, res) => {
    const xseq = exchangeSeq(req);
    const frame = conv.record('in', body, xseq);
    if (frame.message === undefined)
      return jsonAnswer(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
    const messages = Array.isArray(frame.message) ? frame.message : [frame.message];
    const initializing = messages.some((m) => (m as { method?: unknown })?.method === 'initialize');
    const headers: Record<string, string> = {};
    if (conv.revision !== STATELESS) {
      const sid = req.headers['mcp-session-id'];
      if (!initializing && state.sessionId !== undefined && sid !== state.sessionId)
        return answer(res, { status: sid === undefined ? 400 : 404, body: 'missing or unknown Mcp-Session-Id' });
      if (initializing) headers['mcp-session-id'] = state.sessionId = randomUUID();
    }
    const requests = messages.filter(isRequest);
    if (requests.length === 0) {
      for (const m of messages) await conv.handle(m, undefined);
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
        if (reply && reply !== DEFERRED) {
          conv.record('out', JSON.stringify(reply), xseq);
          replies.push(reply);
        }
      }
      return jsonAnswer(res, 200, Array.isArray(frame.message) ? replies : replies[0], headers);
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
    let event = 0;
    const out: Outlet = (m) => res.write(`id: ${xseq}-${event++}\nevent: message\ndata: ${JSON.stringify(m)}\n\n`);
    const reply = await conv.handle(requests[0], out);
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
  return tool !== undefined && ['ask', 'elicit', 'sse-drop'].includes(tool.does);
}
