// What the HTTP checks (transport, sessions, streams, stateless HTTP, authorization) share: sessions opened for a
// probe, what an answer said, and the verdict on a status the spec names.
import type { Session } from '../../session/session.js';
import type { HttpOutcome } from '../../transport/http-base.js';
import { StreamableHttpTransport } from '../../transport/http.js';
import { SseParser, type SseEvent } from '../../transport/sse-parser.js';
import { type CheckContext, type Outcome, fail, pass, skip, warn } from './check.js';
import { isObject } from '../../json.js';
import { TOOL } from '../../version.js';

/** A session id no server issued. */
export const FABRICATED_SESSION = 'mcp-conformance-no-such-session';
export const initializeBody = (id: string, version: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: TOOL },
  });
export const ping = (id: string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });

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
export async function postsAfterPings(
  ctx: CheckContext,
  requests: boolean,
  pings: unknown[] = [undefined],
): Promise<{ text: string; what: string; o: HttpOutcome }[]> {
  const { session, http } = await openSession(ctx);
  for (const params of pings) await session.request('ping', params);
  return Promise.all(
    http.posts
      .filter((p) => p.request === requests)
      .map(async (p) => ({ text: p.sent.text, what: whatWasSent(p.sent.text), o: await p.outcome })),
  );
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

export const isResponse = (m: unknown): m is Record<string, unknown> =>
  isObject(m) && !('method' in m) && ('result' in m || 'error' in m);

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

export async function probeSession(
  ctx: CheckContext,
  http: StreamableHttpTransport,
  label: string,
): Promise<ProbeSession> {
  const init = await http.probe(
    'POST',
    label,
    {},
    initializeBody('mcp-conformance-probe-initialize', ctx.profile.protocolVersion),
  );
  const reply = messagesOf(init).find(isResponse);
  const result = isObject(reply?.result) ? reply.result : undefined;
  const sid = init.headers['mcp-session-id'];
  const sessionId = typeof sid === 'string' ? sid : undefined;
  const version = typeof result?.protocolVersion === 'string' ? result.protocolVersion : ctx.profile.protocolVersion;
  const headers = { ...(sessionId !== undefined && { 'Mcp-Session-Id': sessionId }), 'MCP-Protocol-Version': version };
  if (result)
    await http.probe(
      'POST',
      'notifications/initialized',
      headers,
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    );
  const end = async () => {
    if (sessionId !== undefined) await http.probe('DELETE', 'end the probe session', headers);
  };
  return { init, ...(result && { result }), ...(sessionId !== undefined && { sessionId }), headers, end };
}

export const actualOf = (o: HttpOutcome) => ({
  status: o.status ?? null,
  contentType: o.contentType || null,
  body: o.body || undefined,
});
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

/** Judges an HTTP answer against the status the spec names; `other` is the verdict for any other answer. */
export function expectStatus(o: HttpOutcome, status: number, what: string, other: 'fail' | 'warn'): Outcome {
  if (o.status === status) return pass(`${what} → ${status}`);
  return (other === 'fail' ? fail : warn)(`${what} → ${said(o)}`, { expected: `HTTP ${status}`, actual: actualOf(o) });
}
