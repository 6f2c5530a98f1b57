import type { Session } from '../session/session.js';
import type { HttpOutcome } from '../transport/http-base.js';
import { isLocal } from '../transport/http-client.js';
import { StreamableHttpTransport } from '../transport/http.js';
import { SseParser, type SseEvent } from '../transport/sse-parser.js';
import { TOOL } from '../version.js';
import { type CheckContext, type CheckDef, type Outcome, fail, pass, requirement, skip, warn } from './check.js';
import { isObject } from '../json.js';
import { SCHEMA_REVISIONS, STATELESS_REVISION } from '../schema/revisions.js';

/** How long the GET stream may take to show its response head. */
const GET_WAIT_MS = 2000;
/** A session id no server issued. */
export const FABRICATED_SESSION = 'mcp-conformance-no-such-session';
/** The foreign origin of a DNS-rebinding page; the Host header stays the server's own (requirements §5.10). */
const FOREIGN_ORIGIN = 'http://evil.example';
const VISIBLE_ASCII = /^[\x21-\x7E]+$/;
export const ping = (id: string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });
const initializeBody = (id: string, version: string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: TOOL } });

/** These checks declare `transport: 'http'`, so the runner gives them Streamable HTTP sessions only. */
export function httpOf(session: Session): StreamableHttpTransport {
  if (session.transport instanceof StreamableHttpTransport) return session.transport;
  throw new Error(`a transport/http check got a ${session.transport.kind} session`);
}

/** A new HTTP session: initialized, `notifications/initialized` sent. */
export async function openSession(ctx: CheckContext): Promise<{ session: Session; http: StreamableHttpTransport }> {
  const session = await ctx.fresh();
  const http = httpOf(session);
  await ctx.initialize(session, ctx.profile.protocolVersion);
  const sent = session.notify('notifications/initialized');
  // Probes bypass the message order: let the notification arrive first.
  await http.posts.find((p) => p.sent === sent)?.outcome;
  return { session, http };
}

/** Why a session check has nothing to judge on a server that works without sessions. */
export const NO_SESSIONS = 'the server issued no session id (it works without sessions)';

/** A new HTTP session the server gave an id, or the skip for a server that gives none (`why` says what that rules out). */
export async function identifiedSession(ctx: CheckContext, why = ''): Promise<StreamableHttpTransport | Outcome> {
  const { http } = await openSession(ctx);
  return http.sessionId === undefined ? skip(`${NO_SESSIONS}${why}`) : http;
}

/**
 * A new HTTP session after a ping round trip per entry of `pings` (its params), and its POSTs of one kind, requests or
 * not (notifications and the client's answers), each with what was sent and its outcome.
 */
export async function postsAfterPings(ctx: CheckContext, requests: boolean, pings: unknown[] = [undefined]): Promise<{ text: string; what: string; o: HttpOutcome }[]> {
  const { session, http } = await openSession(ctx);
  for (const params of pings) await session.request('ping', params);
  return Promise.all(http.posts.filter((p) => p.request === requests).map(async (p) => ({ text: p.sent.text, what: whatWasSent(p.sent.text), o: await p.outcome })));
}

/** `HTTP 404 application/json`, or why no response came. */
export function said(o: HttpOutcome): string {
  if (o.status === undefined) return `no response (${o.error})`;
  return `HTTP ${o.status}${o.contentType ? ` ${o.contentType}` : ''}${o.bytes > 0 ? ` (${o.bytes} bytes)` : ''}`;
}

/** The SSE events of a stream a probe read (none for any other answer). */
export function eventsOf(o: HttpOutcome): SseEvent[] {
  const events: SseEvent[] = [];
  if (o.contentType !== 'text/event-stream') return events;
  const parser = new SseParser((e) => events.push(e));
  parser.push(Buffer.from(o.body));
  parser.end();
  return events;
}

/** The JSON a text holds; undefined when it is none. */
export function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The JSON-RPC messages of a probe's answer: its JSON body, or its SSE events' data. */
export function messagesOf(o: HttpOutcome): unknown[] {
  const texts = o.contentType === 'text/event-stream' ? eventsOf(o).map((e) => e.data) : [o.body];
  return texts.flatMap((t) => {
    const m = parsed(t);
    return Array.isArray(m) ? m : [m];
  });
}

export const isResponse = (m: unknown): m is Record<string, unknown> => isObject(m) && !('method' in m) && ('result' in m || 'error' in m);

/** A session opened by probes alone, on a fresh transport that so keeps no session state (no GET stream of its own). */
export interface ProbeSession {
  init: HttpOutcome;
  /** The initialize result; undefined when initialize failed. */
  result?: Record<string, unknown>;
  sessionId?: string;
  /** What names the session on later probes: its id and negotiated version. */
  headers: Record<string, string>;
  end(): Promise<void>;
}

export async function probeSession(ctx: CheckContext, http: StreamableHttpTransport, label: string): Promise<ProbeSession> {
  const init = await http.probe('POST', label, {}, initializeBody('mcp-conformance-probe-initialize', ctx.profile.protocolVersion));
  const reply = messagesOf(init).find(isResponse);
  const result = isObject(reply?.result) ? reply.result : undefined;
  const sid = init.headers['mcp-session-id'];
  const sessionId = typeof sid === 'string' ? sid : undefined;
  const version = typeof result?.protocolVersion === 'string' ? result.protocolVersion : ctx.profile.protocolVersion;
  const headers = { ...(sessionId !== undefined && { 'Mcp-Session-Id': sessionId }), 'MCP-Protocol-Version': version };
  if (result) await http.probe('POST', 'notifications/initialized', headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  const end = async () => {
    if (sessionId !== undefined) await http.probe('DELETE', 'end the probe session', headers);
  };
  return { init, ...(result && { result }), ...(sessionId !== undefined && { sessionId }), headers, end };
}

export const actualOf = (o: HttpOutcome) => ({ status: o.status ?? null, contentType: o.contentType || null, body: o.body || undefined });
export const is2xx = (o: HttpOutcome) => o.status !== undefined && o.status >= 200 && o.status < 300;

/** What the POST carried, for messages: its method, or the id it answered. */
export function whatWasSent(text: string): string {
  try {
    const m = JSON.parse(text) as { method?: unknown; id?: unknown };
    return typeof m.method === 'string' ? m.method : `the response to ${JSON.stringify(m.id)}`;
  } catch {
    return 'a raw body';
  }
}

export const SENDING = 'basic/transports#sending-messages-to-the-server';
export const SESSIONS = 'basic/transports#session-management';

/** The Streamable HTTP transport's own rules (requirements §1.5), each probed on a session of its own. */
export const HTTP_CHECKS: CheckDef[] = [
  {
    id: 'transport/http/notification-202',
    title: 'Notifications and responses POSTed to the server get 202 Accepted with no body',
    requirement: requirement('http.post.notification-202', 'MUST', SENDING, 'A notification or response the server accepts is answered with HTTP 202 Accepted and no body'),
    transport: 'http',
    async run(ctx) {
      // A ping round trip gives a server-initiated request (and the client's POSTed answer) time to happen.
      const outcomes = await postsAfterPings(ctx, false);
      const bad = outcomes.filter(({ o }) => o.status !== 202 || o.bytes > 0);
      if (bad.length > 0) {
        const { what, o } = bad[0]!;
        return fail(`${what} → ${said(o)}`, { expected: 'HTTP 202 with no body', actual: bad.map((b) => ({ sent: b.what, ...actualOf(b.o) })) });
      }
      return pass(`${outcomes.map((x) => x.what).join(', ')} → 202, no body`);
    },
  },
  {
    id: 'transport/http/get-sse-or-405',
    title: 'A GET on the endpoint opens an SSE stream or gets 405',
    requirement: requirement('http.get.sse-or-405', 'MUST', 'basic/transports#listening-for-messages-from-the-server', 'A GET to the MCP endpoint returns Content-Type text/event-stream, or 405 Method Not Allowed when the server offers no stream'),
    transport: 'http',
    async run(ctx) {
      const { http } = await openSession(ctx);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), GET_WAIT_MS)));
      const head = await Promise.race([http.listening, late]).finally(() => clearTimeout(timer));
      if (head === 'late') return skip(`the GET got no response head within ${GET_WAIT_MS} ms (servers may hold it until their first event), so there is nothing to judge`);
      if (head === undefined || head.status === undefined) return fail('the GET got no HTTP response', { expected: 'text/event-stream or HTTP 405' });
      if (head.status === 405) return pass('GET → 405: the server offers no SSE stream');
      if (is2xx(head) && head.contentType === 'text/event-stream') return pass(`GET → ${head.status} text/event-stream`);
      return fail(`GET → ${said(head)}`, { expected: 'text/event-stream or HTTP 405', actual: actualOf(head) });
    },
  },
  {
    id: 'transport/http/session-required',
    title: 'A request without the session id gets 400',
    requirement: requirement('http.session.missing-400', 'SHOULD', SESSIONS, 'A server that issued a session id answers a request without Mcp-Session-Id (other than initialize) with 400 Bad Request'),
    transport: 'http',
    async run(ctx) {
      const http = await identifiedSession(ctx);
      if (!(http instanceof StreamableHttpTransport)) return http;
      const body = JSON.stringify({ jsonrpc: '2.0', id: 'mcp-conformance-no-session', method: 'tools/list', params: {} });
      const o = await http.probe('POST', 'without Mcp-Session-Id', { 'Mcp-Session-Id': undefined }, body);
      if (o.status === 400) return pass('tools/list without Mcp-Session-Id → 400');
      return warn(`tools/list without Mcp-Session-Id → ${said(o)}`, { expected: 'HTTP 400', actual: actualOf(o) });
    },
  },
  {
    id: 'transport/http/unknown-session',
    title: 'A session id the server never issued gets 404',
    requirement: requirement('http.session.terminated-404', 'MUST', SESSIONS, 'A request carrying a session id the server does not know (ended, or never issued) gets 404 Not Found'),
    transport: 'http',
    async run(ctx) {
      const http = await identifiedSession(ctx);
      if (!(http instanceof StreamableHttpTransport)) return http;
      const o = await http.probe('POST', 'unknown Mcp-Session-Id', { 'Mcp-Session-Id': FABRICATED_SESSION }, ping('mcp-conformance-unknown-session'));
      if (o.status === 404) return pass('a fabricated session id → 404');
      // The spec names 404 for sessions the server ended and 400 for a missing id; an id it never issued
      // is in between, so 400 is tolerated (requirements §5.9).
      const verdict = o.status === 400 ? warn : fail;
      return verdict(`a fabricated session id → ${said(o)}`, { expected: 'HTTP 404', actual: actualOf(o) });
    },
  },
  {
    id: 'transport/http/terminated-session',
    title: 'A session ended with DELETE gets 404 afterwards',
    requirement: requirement('http.session.terminated-404', 'MUST', SESSIONS, 'Once a session is terminated, requests carrying its id get 404 Not Found'),
    transport: 'http',
    async run(ctx) {
      const http = await identifiedSession(ctx);
      if (!(http instanceof StreamableHttpTransport)) return http;
      const ended = await http.probe('DELETE', 'end the session');
      if (ended.status === 405) return skip('DELETE → 405: the server does not let clients end sessions');
      if (!is2xx(ended)) return skip(`DELETE → ${said(ended)}: the session did not end, so there is nothing to judge`);
      const o = await http.probe('POST', 'ended session', {}, ping('mcp-conformance-ended-session'));
      if (o.status === 404) return pass(`DELETE → ${ended.status}, then a request with the ended session's id → 404`);
      return fail(`DELETE → ${ended.status}, then a request with the ended session's id → ${said(o)}`, { expected: 'HTTP 404', actual: actualOf(o) });
    },
  },
  {
    id: 'transport/http/protocol-version-invalid',
    title: 'An invalid MCP-Protocol-Version header gets 400',
    requirement: requirement('http.protocol-version.bad-400', 'MUST', 'basic/transports#protocol-version-header', 'A request with an invalid or unsupported MCP-Protocol-Version header gets 400 Bad Request'),
    transport: 'http',
    async run(ctx) {
      const version = ctx.profile.protocolVersion;
      if (version < '2025-06-18') return skip(`the server negotiated ${version}; the MCP-Protocol-Version header came with 2025-06-18`);
      const { http } = await openSession(ctx);
      const answers = [];
      for (const bad of ['1999-01-01', 'not-a-version']) {
        const o = await http.probe('POST', `MCP-Protocol-Version: ${bad}`, { 'MCP-Protocol-Version': bad }, ping(`mcp-conformance-version-${bad}`));
        answers.push({ header: bad, o });
      }
      const wrong = answers.filter((a) => a.o.status !== 400);
      if (wrong.length === 0) return pass('MCP-Protocol-Version 1999-01-01 and not-a-version → 400');
      return fail(wrong.map((a) => `MCP-Protocol-Version ${a.header} → ${said(a.o)}`).join('; '), {
        expected: 'HTTP 400',
        actual: wrong.map((a) => ({ header: a.header, ...actualOf(a.o) })),
      });
    },
  },
  {
    id: 'transport/http/session-id-charset',
    title: 'Session ids are visible ASCII',
    requirement: requirement('http.session.id-charset', 'MUST', SESSIONS, 'A session id contains only visible ASCII characters (0x21 to 0x7E)'),
    transport: 'http',
    async run(ctx) {
      const http = await identifiedSession(ctx);
      if (!(http instanceof StreamableHttpTransport)) return http;
      const sid = http.sessionId!;
      if (VISIBLE_ASCII.test(sid)) return pass(`session id of ${sid.length} visible ASCII characters`);
      return fail(`the session id ${JSON.stringify(sid)} has characters outside 0x21–0x7E`, { expected: 'visible ASCII only', actual: sid });
    },
  },
  {
    id: 'transport/http/origin-forbidden',
    title: 'A local server refuses a foreign Origin with 403',
    requirement: requirement('http.origin.validate', 'MUST', 'basic/transports#security-warning', 'Servers validate the Origin header of every connection; a present, invalid Origin gets 403 Forbidden (2025-11-25 and 2026-07-28)'),
    transport: 'http',
    revisions: SCHEMA_REVISIONS,
    async run(ctx) {
      const session = await ctx.fresh();
      const http = httpOf(session);
      // Which origins are invalid is the server's call; only a local server must refuse a web page's (requirements §5.10).
      if (!isLocal(http.url)) return skip(`${http.url.hostname} is not a local address; whether a public server accepts other origins is its own decision`);
      const version = ctx.profile.protocolVersion;
      // The stateless wire asks server/discover (no session); the initialize wire opens a session.
      const stateless = version === STATELESS_REVISION;
      const params = stateless ? { _meta: session.requestMeta } : { protocolVersion: version, capabilities: {}, clientInfo: TOOL };
      const body = JSON.stringify({ jsonrpc: '2.0', id: 'mcp-conformance-origin', method: stateless ? 'server/discover' : 'initialize', params });
      const o = await http.probe('POST', `Origin: ${FOREIGN_ORIGIN}`, { Origin: FOREIGN_ORIGIN }, body);
      const created = o.headers['mcp-session-id'];
      if (typeof created === 'string') await http.probe('DELETE', 'end the session the foreign origin opened', { 'Mcp-Session-Id': created });
      const what = `${stateless ? 'server/discover' : 'initialize'} with Origin ${FOREIGN_ORIGIN} → ${said(o)}`;
      if (o.status === 403) return pass(what);
      const refused = o.status !== undefined && o.status >= 400 && o.status < 500;
      // 403 is explicit from 2025-11-25; before, any refusal was enough.
      if (refused && version < '2025-11-25') return pass(what);
      if (refused) return warn(`${what}; the spec asks for 403`, { expected: 'HTTP 403', actual: actualOf(o) });
      return fail(`${what}: a page on another site could drive this local server`, { expected: 'HTTP 403', actual: actualOf(o) });
    },
  },
  {
    id: 'transport/http/content-type',
    title: 'Requests are answered with application/json or text/event-stream',
    requirement: requirement('http.post.request-ctype', 'MUST', SENDING, 'The answer to a POSTed request is Content-Type application/json (one JSON object) or text/event-stream (an SSE stream)'),
    transport: 'http',
    async run(ctx) {
      const answered = await postsAfterPings(ctx, true, [undefined, {}]);
      const judged = answered.filter(({ o }) => is2xx(o));
      const bad = judged.filter(({ o }) => o.contentType !== 'application/json' && o.contentType !== 'text/event-stream');
      if (bad.length > 0) {
        return fail(`${bad[0]!.what} → ${said(bad[0]!.o)}`, { expected: 'application/json or text/event-stream', actual: bad.map((b) => ({ sent: b.what, ...actualOf(b.o) })) });
      }
      if (judged.length === 0) return skip('no request got a 2xx answer to judge');
      return pass(judged.map(({ what, o }) => `${what} → ${o.contentType}`).join(', '));
    },
  },
  {
    id: 'transport/http/event-id-unique',
    title: 'SSE event ids are unique within a session',
    requirement: requirement('http.sse.event-id-unique', 'MUST', 'basic/transports#resumability-and-redelivery', 'An SSE event id, when present, is unique across all streams of the session'),
    transport: 'http',
    async run(ctx) {
      const { session, http } = await openSession(ctx);
      for (const params of [undefined, {}, undefined]) await session.request('ping', params);
      const ids = http.eventIds;
      if (ids.length === 0) return skip('the server sent no SSE event with an id (ids are optional)');
      const repeated = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
      if (repeated.length > 0) return fail(`event id ${JSON.stringify(repeated[0])} was used more than once in one session`, { expected: 'distinct event ids', actual: ids });
      return pass(`${ids.length} event ids, all distinct`);
    },
  },
];
