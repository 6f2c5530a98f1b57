#!/usr/bin/env node
// MCP reference server over Streamable HTTP, on node:http alone: `node http.mjs --port N` (or PORT=N; 0 picks
// a free port). It listens on 127.0.0.1 only, at /mcp. Each session runs its own `createServer()` from
// mcp.mjs. `createHttpServer()` returns the HTTP layer as an object whose parts test fixtures can replace.
// `--revision 2026-07-28` serves the stateless wire only (no sessions), `--revision all` both wires.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  createServer,
  errorResponse,
  ErrorCode,
  isObject,
  META,
  readableId,
  requestProblem,
  SERVER_NAME,
  SERVER_VERSION,
  STATELESS_VERSION,
  SUPPORTED_VERSIONS,
} from './mcp.mjs';

export const ENDPOINT = '/mcp';
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** How many SSE events of a session are kept for resumption. */
const LOG_EVENTS = 200;
/** HeaderMismatch (2026-07-28): the request metadata headers are missing or disagree with the body. */
const HEADER_MISMATCH = -32020;
/** The methods whose target (`params.name` or `params.uri`) is mirrored in Mcp-Name. */
const NAMED = new Set(['tools/call', 'prompts/get', 'resources/read']);
/** The Tasks extension's methods, whose `params.taskId` is mirrored in Mcp-Name. */
const TASK_NAMED = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

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
const metaOf = (m) => (isObject(m) && isObject(m.params) && isObject(m.params._meta) ? m.params._meta : {});

/**
 * A mirrored header value decoded: the Base64 sentinel form `=?base64?…?=` stands for the UTF-8 text it encodes (the
 * spec's form for Mcp-Name, accepted for a method name no header could carry as well).
 */
function decodeHeader(value) {
  const encoded = /^=\?base64\?(.*)\?=$/.exec(value);
  return encoded ? Buffer.from(encoded[1], 'base64').toString('utf8') : value;
}

/**
 * `revision`: undefined serves the initialize wire only; '2026-07-28' the stateless wire only; 'all' both.
 * @param {{ revision?: string }} [options]
 */
export function createHttpServer({ revision } = {}) {
  const legacy = revision !== STATELESS_VERSION;
  const stateless = revision === STATELESS_VERSION || revision === 'all';
  const app = {
    /** Live sessions by id. */
    sessions: new Map(),

    /**
     * A new session id: a random UUID, so visible ASCII and unguessable.
     * @type {() => string}
     */
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

    /** Only local names reach a local server: a foreign Host is a page whose name was rebound to 127.0.0.1. */
    hostAllowed(host) {
      if (host === undefined) return true;
      try {
        return LOCAL_HOSTS.has(new URL(`http://${host}`).hostname);
      } catch {
        return false;
      }
    },

    /** A missing header is fine (the session knows its version); a present one must name a supported version. */
    versionAllowed: (header) => header === undefined || SUPPORTED_VERSIONS.includes(header),

    /** A session object, not yet registered; what its server sends goes to the request being answered, else to the GET stream. */
    newSession() {
      const session = {
        id: this.newSessionId(),
        server: createServer({ revision }),
        events: 0,
        /** @type {{ id: string, stream: object, message: unknown }[]} */
        log: [],
        stream: null,
        queue: [],
        /** @type {unknown[] | null} */
        sink: null,
      };
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
      this.prime(res, session);
      for (const message of messages) this.writeEvent(res, session, message);
      res.end();
    },

    /** From 2025-11-25 a request's stream opens with an event id and empty data: a point the client could resume from. */
    prime(res, session) {
      if (session.server.state.protocolVersion < '2025-11-25') return;
      const id = this.nextEventId(session);
      this.remember(session, res, id, null);
      res.write(`id: ${id}\ndata: \n\n`);
    },

    writeEvent(res, session, message) {
      const id = this.nextEventId(session);
      this.remember(session, res, id, message);
      res.write(`id: ${id}\ndata: ${JSON.stringify(message)}\n\n`);
    },

    /** Keeps an event (null: a priming event) of a session's stream (its response object) for resumption. */
    remember(session, stream, id, message) {
      session.log.push({ id, stream, message });
      if (session.log.length > LOG_EVENTS) session.log.shift();
    },

    /** What a GET with Last-Event-ID replays: the later events of that event's stream only; null for an id not kept. */
    replay(session, lastId) {
      const at = session.log.findIndex((e) => e.id === lastId);
      if (at < 0) return null;
      return session.log.slice(at + 1).filter((e) => e.stream === session.log[at].stream);
    },

    /** Resumes a stream (2025-11-25: always by GET): its events after Last-Event-ID, with their ids, then the end. */
    resume(res, events) {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      for (const { id, message } of events)
        if (message !== null) res.write(`id: ${id}\ndata: ${JSON.stringify(message)}\n\n`);
      res.end();
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
      if (new URL(req.url, 'http://localhost').pathname !== ENDPOINT)
        return refuse(res, 404, `Not Found: the MCP endpoint is ${ENDPOINT}`);
      if (!this.originAllowed(req.headers.origin)) return refuse(res, 403, 'Forbidden: Origin not allowed');
      if (!this.hostAllowed(req.headers.host)) return refuse(res, 403, 'Forbidden: Host not allowed');
      if (req.method === 'POST') return this.post(req, res, await readBody(req));
      if ((req.method === 'GET' || req.method === 'DELETE') && this.isStateless(req)) return this.retired(req, res);
      if (req.method === 'GET') return this.get(req, res);
      if (req.method === 'DELETE') return this.delete(req, res);
      res.writeHead(405, { Allow: 'GET, POST, DELETE' }).end();
    },

    // ------------------------------------------------------------ the stateless wire (2026-07-28)

    /**
     * One core answers every stateless request: they need no session. In `all` mode it names both eras' versions.
     * Typed as set: only the stateless wire's handlers use it, and they run only when it is.
     */
    core: /** @type {ReturnType<typeof createServer>} */ (
      stateless ? createServer({ revision: STATELESS_VERSION }) : null
    ),
    /**
     * What the core sends while it handles a request (handlers run synchronously), but for listen streams: that request's stream.
     * @type {unknown[] | null}
     */
    coreSink: null,

    /** Whether a request is for the stateless wire: always in 2026-07-28 mode, in `all` mode when its headers or body say so. */
    isStateless(req, msg) {
      if (!stateless) return false;
      if (!legacy) return true;
      const modernHeaders =
        req.headers['mcp-method'] !== undefined || req.headers['mcp-protocol-version'] === STATELESS_VERSION;
      return (
        modernHeaders || META.protocolVersion in metaOf(msg) || (isObject(msg) && msg.method === 'server/discover')
      );
    },

    /** GET and DELETE (the stream and the session of earlier revisions) do not exist on the stateless wire. */
    retired(_req, res) {
      res.writeHead(405, { Allow: 'POST' }).end();
    },

    /** Why the request metadata headers do not mirror the body (streamable-http#server-validation), or null. */
    headerProblem(req, msg) {
      const method = req.headers['mcp-method'];
      if (method === undefined) return 'the Mcp-Method header is missing';
      if (decodeHeader(method) !== msg.method)
        return `Mcp-Method header value ${JSON.stringify(method)} does not match body value ${JSON.stringify(msg.method)}`;
      const version = req.headers['mcp-protocol-version'];
      const requested = metaOf(msg)[META.protocolVersion];
      if (version === undefined) return 'the MCP-Protocol-Version header is missing';
      // A body without a version is refused by the core (-32602), not here.
      if (typeof requested === 'string' && version !== requested)
        return `MCP-Protocol-Version header value ${JSON.stringify(version)} does not match body value ${JSON.stringify(requested)}`;
      const params = isObject(msg.params) ? msg.params : {};
      // The Tasks extension's requests name their task (tasks#streamable-http-routing-headers).
      const target = NAMED.has(msg.method)
        ? (params.name ?? params.uri)
        : TASK_NAMED.has(msg.method)
          ? params.taskId
          : undefined;
      if (typeof target !== 'string') return null;
      const name = req.headers['mcp-name'];
      if (name === undefined) return 'the Mcp-Name header is missing';
      if (decodeHeader(name) !== target)
        return `Mcp-Name header value ${JSON.stringify(name)} does not match body value ${JSON.stringify(target)}`;
      return msg.method === 'tools/call' ? this.paramHeaderProblem(req, target, msg.params.arguments) : null;
    },

    /** Why the Mcp-Param-{Name} headers do not mirror the arguments the tool's x-mcp-header annotations name, or null. */
    paramHeaderProblem(req, toolName, args) {
      const tool = this.core.tools.find((t) => t.name === toolName);
      const values = isObject(args) ? args : {};
      for (const [arg, schema] of Object.entries(tool?.inputSchema?.properties ?? {})) {
        const header = schema?.['x-mcp-header'];
        if (typeof header !== 'string') continue;
        const sent = req.headers[`mcp-param-${header.toLowerCase()}`];
        const value = values[arg];
        if (value === undefined || value === null) continue;
        if (sent === undefined) return `the Mcp-Param-${header} header is missing`;
        if (decodeHeader(sent) !== String(value))
          return `Mcp-Param-${header} header value ${JSON.stringify(sent)} does not match argument ${arg} ${JSON.stringify(value)}`;
      }
      return null;
    },

    /** The HTTP status of a stateless answer: 404 for an unknown method, 400 for what the protocol fields rule out. */
    statusOf(msg, response) {
      const code = response.error?.code;
      if (code === ErrorCode.METHOD_NOT_FOUND) return 404;
      const meta = metaOf(msg);
      const fields = typeof meta[META.protocolVersion] === 'string' && isObject(meta[META.clientCapabilities]);
      const refused = [ErrorCode.UNSUPPORTED_PROTOCOL_VERSION, ErrorCode.MISSING_REQUIRED_CLIENT_CAPABILITY].includes(
        code,
      );
      return refused || !fields ? 400 : 200;
    },

    /** Open subscriptions/listen streams, by the listen request's id (JSON). */
    listenStreams: new Map(),

    /** An SSE stream that proxies must not buffer, with these messages (no event ids: it is not resumable). */
    openStream07(res, messages) {
      res.writeHead(200, {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache',
        'X-Accel-Buffering': 'no',
      });
      for (const message of messages) res.write(`data: ${JSON.stringify(message)}\n\n`);
    },

    /** A result on an SSE stream; an error as JSON. */
    answer(res, status, messages) {
      if (status !== 200) return json(res, status, messages.at(-1));
      this.openStream07(res, messages);
      res.end();
    },

    /** A subscriptions/listen stream stays open; the client closing it cancels the subscription. */
    listen(res, id, messages) {
      const key = JSON.stringify(id);
      this.openStream07(res, messages);
      res.flushHeaders();
      this.listenStreams.set(key, res);
      res.on('close', () => {
        this.listenStreams.delete(key);
        this.core.handleMessage({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } });
      });
    },

    /** Streams of slow requests still working, by request id (JSON): `res`, and the progressToken their notifications name. */
    workStreams: new Map(),

    /** Slow work's stream stays open until its answer; the client closing it first cancels the request (basic/patterns/cancellation). */
    working07(res, msg, messages) {
      const key = JSON.stringify(msg.id);
      this.openStream07(res, messages);
      res.flushHeaders();
      this.workStreams.set(key, { res, token: msg.params?._meta?.progressToken });
      res.on('close', () => {
        if (!this.workStreams.delete(key)) return;
        this.core.handleMessage({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: msg.id } });
      });
    },

    /** The stream of the slow request a message belongs to: its answer, or progress naming its token. */
    workStreamOf(message) {
      if ('id' in message) return this.workStreams.get(JSON.stringify(message.id));
      const token = message.params?.progressToken;
      return token === undefined ? undefined : [...this.workStreams.values()].find((w) => w.token === token);
    },

    /** A stateless POST: one request or notification, its headers checked, served without a session (Mcp-Session-Id is ignored). */
    statelessPost(req, res, msg) {
      const problem = requestProblem(msg);
      if (problem)
        return json(
          res,
          400,
          errorResponse(
            isObject(msg) ? readableId(msg.id) : null,
            ErrorCode.INVALID_REQUEST,
            `Invalid request: ${problem}`,
          ),
        );
      if (isNotification(msg)) {
        this.core.handleMessage(msg);
        return this.accepted(res);
      }
      // A legacy initialize gets the core's -32022 naming the supported versions, not a header complaint.
      const mismatch = msg.method === 'initialize' ? null : this.headerProblem(req, msg);
      if (mismatch) return json(res, 400, errorResponse(msg.id, HEADER_MISMATCH, `Header mismatch: ${mismatch}`));
      // Every stateless client has ids of its own, and all share this core: it sees a request under an id unique here,
      // and what it sends goes out under the client's id again.
      const own = this.inward(msg);
      this.coreSink = [];
      const response = this.core.handleMessage(own);
      const messages = [...this.coreSink, ...(response === null ? [] : [response])].map((m) => this.outward(m));
      this.coreSink = null;
      // No response yet: a subscriptions/listen request, answered only with notifications for as long as it lasts, or
      // slow work, answered on its stream when done.
      if (response === null) {
        res.on('close', () => this.inFlight.delete(own.id));
        return msg.method === 'subscriptions/listen'
          ? this.listen(res, own.id, messages)
          : this.working07(res, own, messages);
      }
      this.inFlight.delete(own.id);
      this.answer(res, this.statusOf(msg, this.outward(response)), messages);
    },

    /** The client's id and progressToken of each stateless request the core is handling, by the id it sees. */
    inFlight: new Map(),
    lastInternal: 0,

    /** A stateless request as the core sees it: under an id unique here, which is its progressToken too when it has one. */
    inward(msg) {
      const id = `mcp-reference-${++this.lastInternal}`;
      const meta = isObject(msg.params?._meta) ? msg.params._meta : undefined;
      this.inFlight.set(id, { id: msg.id, token: meta?.progressToken });
      if (meta?.progressToken === undefined) return { ...msg, id };
      return { ...msg, id, params: { ...msg.params, _meta: { ...meta, progressToken: id } } };
    },

    /** A message of the core as its client sees it: the client's id, progressToken and subscription id again. */
    outward(message) {
      const params = isObject(message.params) ? message.params : undefined;
      const subscription = params?._meta?.[META.subscriptionId];
      const mine = (key) => (typeof key === 'string' ? this.inFlight.get(key) : undefined);
      if ('id' in message && mine(message.id)) return { ...message, id: mine(message.id).id };
      if (mine(params?.progressToken))
        return { ...message, params: { ...params, progressToken: mine(params.progressToken).token } };
      if (mine(subscription))
        return {
          ...message,
          params: { ...params, _meta: { ...params._meta, [META.subscriptionId]: mine(subscription).id } },
        };
      return message;
    },

    post(req, res, text) {
      const accept = req.headers.accept ?? '';
      if (!accept.includes('application/json') || !accept.includes('text/event-stream'))
        return refuse(res, 406, 'Not Acceptable: accept both application/json and text/event-stream');
      if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
        return refuse(res, 415, 'Unsupported Media Type: send application/json');
      let msg;
      try {
        msg = JSON.parse(text);
      } catch {
        return json(res, 400, errorResponse(null, ErrorCode.PARSE_ERROR, 'Parse error: invalid JSON'));
      }
      if (this.isStateless(req, msg)) return this.statelessPost(req, res, msg);
      if (isObject(msg) && msg.method === 'initialize' && 'id' in msg) return this.initialize(req, res, msg);
      // Pings are exempt from the initialization order, so one needs no session either.
      if (isObject(msg) && msg.method === 'ping' && req.headers['mcp-session-id'] === undefined && !requestProblem(msg))
        return json(res, 200, createServer().handleMessage(msg));
      const session = this.sessionFor(req, res);
      if (!session) return;
      const version = req.headers['mcp-protocol-version'];
      if (!this.versionAllowed(version))
        return refuse(res, 400, `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version)}`);
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
      if (req.headers['mcp-session-id'] !== undefined)
        return json(
          res,
          400,
          errorResponse(
            msg.id ?? null,
            ErrorCode.INVALID_REQUEST,
            'Invalid request: initialize starts a new session; send it without Mcp-Session-Id',
          ),
        );
      const session = this.newSession();
      // An initialize request is answered at once, never deferred (null).
      const response = /** @type {NonNullable<ReturnType<typeof session.server.handleMessage>>} */ (
        session.server.handleMessage(msg)
      );
      if (response.error) return json(res, 200, response);
      this.sessions.set(session.id, session);
      json(res, 200, response, { 'Mcp-Session-Id': session.id });
    },

    get(req, res) {
      if (!(req.headers.accept ?? '').includes('text/event-stream'))
        return refuse(res, 406, 'Not Acceptable: accept text/event-stream');
      const session = this.sessionFor(req, res);
      if (!session) return;
      if (!this.versionAllowed(req.headers['mcp-protocol-version']))
        return refuse(res, 400, 'Bad Request: unsupported MCP-Protocol-Version');
      const lastId = req.headers['last-event-id'];
      const events = typeof lastId === 'string' ? this.replay(session, lastId) : null;
      // An id not kept (or never sent) resumes nothing: the GET opens the standalone stream.
      if (events) return this.resume(res, events);
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
  if (app.core) {
    if (legacy) app.core.versions = [STATELESS_VERSION, ...SUPPORTED_VERSIONS];
    // Slow work answers later, on its request's stream.
    app.core.canDefer = true;
    // A notification for a listen stream goes there, the progress or answer of slow work to its stream; anything else to the request being handled.
    app.core.send = (message) => {
      const stream = app.listenStreams.get(JSON.stringify(message.params?._meta?.[META.subscriptionId]));
      const work = app.coreSink ? undefined : app.workStreamOf(message);
      if (stream) stream.write(`data: ${JSON.stringify(app.outward(message))}\n\n`);
      else if (work) {
        work.res.write(`data: ${JSON.stringify(app.outward(message))}\n\n`);
        if ('id' in message) {
          app.workStreams.delete(JSON.stringify(message.id));
          app.inFlight.delete(message.id);
          work.res.end();
        }
      } else app.coreSink?.push(message);
    };
  }
  // A request that breaks off mid-body just ends its connection.
  app.http = http.createServer((req, res) => app.handle(req, res).catch(() => res.destroy()));
  return app;
}

/** Listens on 127.0.0.1 (`port` 0: any free port), says where on stderr, and exits on SIGTERM or SIGINT. */
export function serve(app, port) {
  app.http.listen(port, '127.0.0.1', () => {
    app.auth?.at(`http://127.0.0.1:${app.http.address().port}${ENDPOINT}`);
    process.stderr.write(
      `${SERVER_NAME} ${SERVER_VERSION}: serving MCP at http://127.0.0.1:${app.http.address().port}${ENDPOINT} (pid ${process.pid})\n`,
    );
  });
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
}

/**
 * `--port N` (or PORT; default 3000), `--revision 2026-07-28|all`, and `--auth` (with `--issuer URL`, `--jwks-url URL`,
 * else MCP_CONFORMANCE_ISSUER and MCP_CONFORMANCE_JWKS_URL: see auth.mjs), as the command line gives them.
 */
export function commandLine() {
  const options = /** @type {const} */ ({
    port: { type: 'string' },
    revision: { type: 'string' },
    auth: { type: 'boolean' },
    issuer: { type: 'string' },
    'jwks-url': { type: 'string' },
  });
  const { values } = parseArgs({ options });
  const issuer = values.issuer ?? process.env.MCP_CONFORMANCE_ISSUER;
  const auth = values.auth
    ? { issuer, jwksUrl: values['jwks-url'] ?? process.env.MCP_CONFORMANCE_JWKS_URL }
    : undefined;
  // Node's typings see every option as possibly `multiple`: none is.
  const revision = /** @type {string | undefined} */ (values.revision);
  return { port: Number(values.port ?? process.env.PORT ?? 3000), revision, auth };
}

/** The app the command line asks for: protected by a bearer token with `--auth`. */
export async function appOf({ revision, auth }) {
  const app = createHttpServer({ revision });
  if (auth) (await import('./auth.mjs')).protect(app, auth);
  return app;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const options = commandLine();
  serve(await appOf(options), options.port);
}
