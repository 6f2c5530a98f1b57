#!/usr/bin/env node
// MCP reference server over Streamable HTTP, on node:http alone: `node http.mjs --port N` (or PORT=N; 0 picks
// a free port). It listens on 127.0.0.1 only, at /mcp. Each session runs its own `createServer()` from
// mcp.mjs. `createHttpServer()` returns the HTTP layer as an object whose parts test fixtures can replace.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { createServer, errorResponse, ErrorCode, isObject, requestProblem, SERVER_NAME, SERVER_VERSION, SUPPORTED_VERSIONS } from './mcp.mjs';

export const ENDPOINT = '/mcp';
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function json(res, status, body, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** An HTTP-level refusal: the status, and a JSON-RPC error without an id, as the spec allows. */
function refuse(res, status, message, code = -32000) {
  json(res, status, { jsonrpc: '2.0', error: { code, message } });
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

const isNotification = (m) => isObject(m) && typeof m.method === 'string' && !('id' in m);
const isResponse = (m) => isObject(m) && !('method' in m) && ('result' in m || 'error' in m);

export function createHttpServer() {
  const app = {
    /** Live sessions by id. */
    sessions: new Map(),

    /** A new session id: a random UUID, so visible ASCII and unguessable. */
    newSessionId: () => randomUUID(),

    /** The next SSE event id of a session: a counter, so unique across all the session's streams. */
    nextEventId: (session) => String(++session.events),

    /** A page from another site may not drive a local server (DNS rebinding): only local origins pass. */
    originAllowed(origin) {
      if (origin === undefined) return true;
      try {
        return LOCAL_HOSTS.has(new URL(origin).hostname);
      } catch {
        return false;
      }
    },

    /** A missing header is fine (the session knows its version); a present one must name a supported version. */
    versionAllowed: (header) => header === undefined || SUPPORTED_VERSIONS.includes(header),

    /** A session object, not yet registered; what its server sends goes to the request being answered, else to the GET stream. */
    newSession() {
      const session = { id: this.newSessionId(), server: createServer(), events: 0, stream: null, queue: [], sink: null };
      session.server.send = (message) => (session.sink ? session.sink.push(message) : this.push(session, message));
      return session;
    },

    /** The session a request names: 400 when it names none, 404 when this server does not have it (any more). */
    sessionFor(req, res) {
      const id = req.headers['mcp-session-id'];
      if (id === undefined) return refuse(res, 400, 'Bad Request: Mcp-Session-Id header is required');
      const session = this.sessions.get(id);
      if (!session) return refuse(res, 404, 'Session not found', -32001);
      return session;
    },

    endSession(session) {
      this.sessions.delete(session.id);
      session.stream?.end();
    },

    /** A notification or response the server took: 202 Accepted, no body. */
    accepted(res) {
      res.writeHead(202).end();
    },

    /** Answers a request with an SSE stream: what the handler sent on the way, then the response. */
    reply(res, session, messages) {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      for (const message of messages) this.writeEvent(res, session, message);
      res.end();
    },

    writeEvent(res, session, message) {
      res.write(`id: ${this.nextEventId(session)}\ndata: ${JSON.stringify(message)}\n\n`);
    },

    /** Outside a request, messages go on the GET stream, or wait for one. */
    push(session, message) {
      if (session.stream) this.writeEvent(session.stream, session, message);
      else session.queue.push(message);
    },

    /** The standalone GET stream of a session. */
    openStream(_req, res, session) {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      res.flushHeaders();
      session.stream = res;
      res.on('close', () => {
        if (session.stream === res) session.stream = null;
      });
      for (const message of session.queue.splice(0)) this.writeEvent(res, session, message);
    },

    async handle(req, res) {
      if (new URL(req.url, 'http://localhost').pathname !== ENDPOINT) return refuse(res, 404, `Not Found: the MCP endpoint is ${ENDPOINT}`);
      if (!this.originAllowed(req.headers.origin)) return refuse(res, 403, 'Forbidden: Origin not allowed');
      if (req.method === 'POST') return this.post(req, res, await readBody(req));
      if (req.method === 'GET') return this.get(req, res);
      if (req.method === 'DELETE') return this.delete(req, res);
      res.writeHead(405, { Allow: 'GET, POST, DELETE' }).end();
    },

    post(req, res, text) {
      const accept = req.headers.accept ?? '';
      if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return refuse(res, 406, 'Not Acceptable: accept both application/json and text/event-stream');
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return refuse(res, 415, 'Unsupported Media Type: send application/json');
      let msg;
      try {
        msg = JSON.parse(text);
      } catch {
        return json(res, 400, errorResponse(null, ErrorCode.PARSE_ERROR, 'Parse error: invalid JSON'));
      }
      if (isObject(msg) && msg.method === 'initialize' && 'id' in msg) return this.initialize(req, res, msg);
      // Pings are exempt from the initialization order, so one needs no session either.
      if (isObject(msg) && msg.method === 'ping' && req.headers['mcp-session-id'] === undefined && !requestProblem(msg)) return json(res, 200, createServer().handleMessage(msg));
      const session = this.sessionFor(req, res);
      if (!session) return;
      const version = req.headers['mcp-protocol-version'];
      if (!this.versionAllowed(version)) return refuse(res, 400, `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version)}`);
      if (Array.isArray(msg)) {
        // Batches are a 2025-03-26 feature; handleLine answers the others with an error.
        const out = session.server.handleLine(text);
        if (out === null) return this.accepted(res);
        return json(res, Array.isArray(out) ? 200 : 400, out);
      }
      if (isNotification(msg) || isResponse(msg)) {
        session.server.handleMessage(msg);
        return this.accepted(res);
      }
      if (requestProblem(msg)) return json(res, 400, session.server.handleMessage(msg));
      session.sink = [];
      const response = session.server.handleMessage(msg);
      const messages = [...session.sink, response];
      session.sink = null;
      this.reply(res, session, messages);
    },

    /** initialize opens a session, answered with JSON and the new Mcp-Session-Id. */
    initialize(req, res, msg) {
      if (req.headers['mcp-session-id'] !== undefined) return json(res, 400, errorResponse(msg.id ?? null, ErrorCode.INVALID_REQUEST, 'Invalid request: initialize starts a new session; send it without Mcp-Session-Id'));
      const session = this.newSession();
      const response = session.server.handleMessage(msg);
      if (response.error) return json(res, 200, response);
      this.sessions.set(session.id, session);
      json(res, 200, response, { 'Mcp-Session-Id': session.id });
    },

    get(req, res) {
      if (!(req.headers.accept ?? '').includes('text/event-stream')) return refuse(res, 406, 'Not Acceptable: accept text/event-stream');
      const session = this.sessionFor(req, res);
      if (!session) return;
      if (!this.versionAllowed(req.headers['mcp-protocol-version'])) return refuse(res, 400, 'Bad Request: unsupported MCP-Protocol-Version');
      if (session.stream) return refuse(res, 409, 'Conflict: this session already has a GET stream');
      this.openStream(req, res, session);
    },

    delete(req, res) {
      const session = this.sessionFor(req, res);
      if (!session) return;
      this.endSession(session);
      res.writeHead(204).end();
    },
  };
  // A request that breaks off mid-body just ends its connection.
  app.http = http.createServer((req, res) => app.handle(req, res).catch(() => res.destroy()));
  return app;
}

/** Listens on 127.0.0.1 (`port` 0: any free port), says where on stderr, and exits on SIGTERM or SIGINT. */
export function serve(app, port) {
  app.http.listen(port, '127.0.0.1', () => {
    process.stderr.write(`${SERVER_NAME} ${SERVER_VERSION}: serving MCP at http://127.0.0.1:${app.http.address().port}${ENDPOINT} (pid ${process.pid})\n`);
  });
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const flag = process.argv.indexOf('--port');
  serve(createHttpServer(), Number(flag >= 0 ? process.argv[flag + 1] : (process.env.PORT ?? 3000)));
}
