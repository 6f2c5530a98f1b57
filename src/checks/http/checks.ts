import { isLocal } from '../../transport/http-client.js';
import { StreamableHttpTransport } from '../../transport/http.js';
import { TOOL } from '../../version.js';
import { type CheckContext, type CheckDef, type Outcome, fail, pass, skip, warn } from '../kit/check.js';
import type { HttpOutcome } from '../../transport/http-base.js';
import { requirement } from '../kit/requirement.js';
import { SCHEMA_REVISIONS, STATELESS_REVISION } from '../../schema/revisions.js';
import {
  FABRICATED_SESSION,
  SENDING,
  expectStatus,
  SESSIONS,
  actualOf,
  httpOf,
  identifiedSession,
  is2xx,
  openSession,
  ping,
  postsAfterPings,
  said,
} from '../kit/http.js';
import { within } from '../../timing.js';

/** How long the GET stream may take to show its response head. */
const GET_WAIT_MS = 2000;
/** The foreign origin of a page on another site; the Host header stays the server's own (requirements §5.10). */
const FOREIGN_ORIGIN = 'http://evil.example';
/** The name a DNS-rebinding page is served from, until it resolves to the local server. */
const FOREIGN_HOST = 'evil.example';
const SECURITY = 'basic/transports#security-warning';
const VISIBLE_ASCII = /^[\x21-\x7E]+$/;

/** What an opening request sent with some headers got, and how to say it. */
interface Opened {
  o: HttpOutcome;
  what: string;
}

/**
 * Sends the request that opens a conversation (initialize; server/discover on the stateless wire) with header
 * overrides, on a fresh transport of a local server; or the skip for a public one, which decides itself whom it serves.
 */
async function localOpener(
  ctx: CheckContext,
): Promise<
  { http: StreamableHttpTransport; send(label: string, headers: Record<string, string>): Promise<Opened> } | Outcome
> {
  const session = await ctx.fresh();
  const http = httpOf(session);
  // Which origins are invalid is the server's call; only a local server must refuse a web page's (requirements §5.10).
  if (!isLocal(http.url))
    return skip(
      `${http.url.hostname} is not a local address; whether a public server accepts other origins is its own decision`,
    );
  const version = ctx.profile.protocolVersion;
  // The stateless wire asks server/discover (no session); the initialize wire opens a session.
  const method = version === STATELESS_REVISION ? 'server/discover' : 'initialize';
  const params =
    method === 'server/discover'
      ? { _meta: session.requestMeta }
      : { protocolVersion: version, capabilities: {}, clientInfo: TOOL };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 'mcp-conformance-origin', method, params });
  const send = async (label: string, headers: Record<string, string>) => {
    const o = await http.probe('POST', label, headers, body);
    const created = o.headers['mcp-session-id'];
    if (typeof created === 'string')
      await http.probe('DELETE', 'end the session this request opened', { 'Mcp-Session-Id': created });
    return { o, what: `${method} with ${label} → ${said(o)}` };
  };
  return { http, send };
}

/** The answer to a request with a foreign Origin, sent once per run and shared by the checks that read it. */
const foreignOrigin = (
  ctx: CheckContext,
  opener: { send(label: string, headers: Record<string, string>): Promise<Opened> },
) => ctx.memo('http:foreign-origin', () => opener.send(`Origin ${FOREIGN_ORIGIN}`, { Origin: FOREIGN_ORIGIN }));

/** The verdict on a request from a foreign page: 403 (any refusal before 2025-11-25 made 403 explicit). */
function refusal(o: HttpOutcome, what: string, version: string): Outcome {
  if (o.status === 403) return pass(what);
  const refused = o.status !== undefined && o.status >= 400 && o.status < 500;
  if (refused && version < '2025-11-25') return pass(what);
  if (refused) return warn(`${what}; the spec asks for 403`, { expected: 'HTTP 403', actual: actualOf(o) });
  return fail(`${what}: a page on another site could drive this local server`, {
    expected: 'HTTP 403',
    actual: actualOf(o),
  });
}

/** The Streamable HTTP transport's own rules (requirements §1.5), each probed on a session of its own. */
export const HTTP_CHECKS: CheckDef[] = [
  {
    id: 'transport/http/notification-202',
    title: 'Notifications and responses POSTed to the server get 202 Accepted with no body',
    requirement: requirement(
      'http.post.notification-202',
      'MUST',
      SENDING,
      'A notification or response the server accepts is answered with HTTP 202 Accepted and no body',
    ),
    transport: 'http',
    async run(ctx) {
      // A ping round trip gives a server-initiated request (and the client's POSTed answer) time to happen.
      const outcomes = await postsAfterPings(ctx, false);
      const bad = outcomes.filter(({ o }) => o.status !== 202 || o.bytes > 0);
      if (bad.length > 0) {
        const { what, o } = bad[0]!;
        return fail(`${what} → ${said(o)}`, {
          expected: 'HTTP 202 with no body',
          actual: bad.map((b) => ({ sent: b.what, ...actualOf(b.o) })),
        });
      }
      return pass(`${outcomes.map((x) => x.what).join(', ')} → 202, no body`);
    },
  },
  {
    id: 'transport/http/get-sse-or-405',
    title: 'A GET on the endpoint opens an SSE stream or gets 405',
    requirement: requirement(
      'http.get.sse-or-405',
      'MUST',
      'basic/transports#listening-for-messages-from-the-server',
      'A GET to the MCP endpoint returns Content-Type text/event-stream, or 405 Method Not Allowed when the server offers no stream',
    ),
    transport: 'http',
    async run(ctx) {
      const { http } = await openSession(ctx);
      const head = await within('the GET stream: its response head', GET_WAIT_MS, http.listening, 'late' as const);
      if (head === 'late')
        return skip(
          `the GET got no response head within ${GET_WAIT_MS} ms (servers may hold it until their first event), so there is nothing to judge`,
        );
      if (head === undefined || head.status === undefined)
        return fail('the GET got no HTTP response', { expected: 'text/event-stream or HTTP 405' });
      if (head.status === 405) return pass('GET → 405: the server offers no SSE stream');
      if (is2xx(head) && head.contentType === 'text/event-stream')
        return pass(`GET → ${head.status} text/event-stream`);
      return fail(`GET → ${said(head)}`, { expected: 'text/event-stream or HTTP 405', actual: actualOf(head) });
    },
  },
  {
    id: 'transport/http/session-required',
    title: 'A request without the session id gets 400',
    requirement: requirement(
      'http.session.missing-400',
      'SHOULD',
      SESSIONS,
      'A server that issued a session id answers a request without Mcp-Session-Id (other than initialize) with 400 Bad Request',
    ),
    transport: 'http',
    async run(ctx) {
      const http = await identifiedSession(ctx);
      if (!(http instanceof StreamableHttpTransport)) return http;
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 'mcp-conformance-no-session',
        method: 'tools/list',
        params: {},
      });
      const o = await http.probe('POST', 'without Mcp-Session-Id', { 'Mcp-Session-Id': undefined }, body);
      return expectStatus(o, 400, 'tools/list without Mcp-Session-Id', 'warn');
    },
  },
  {
    id: 'transport/http/unknown-session',
    title: 'A session id the server never issued gets 404',
    requirement: requirement(
      'http.session.terminated-404',
      'MUST',
      SESSIONS,
      'A request carrying a session id the server does not know (ended, or never issued) gets 404 Not Found',
    ),
    transport: 'http',
    async run(ctx) {
      const http = await identifiedSession(ctx);
      if (!(http instanceof StreamableHttpTransport)) return http;
      const o = await http.probe(
        'POST',
        'unknown Mcp-Session-Id',
        { 'Mcp-Session-Id': FABRICATED_SESSION },
        ping('mcp-conformance-unknown-session'),
      );
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
    requirement: requirement(
      'http.session.terminated-404',
      'MUST',
      SESSIONS,
      'Once a session is terminated, requests carrying its id get 404 Not Found',
    ),
    transport: 'http',
    async run(ctx) {
      const http = await identifiedSession(ctx);
      if (!(http instanceof StreamableHttpTransport)) return http;
      const ended = await http.probe('DELETE', 'end the session');
      if (ended.status === 405) return skip('DELETE → 405: the server does not let clients end sessions');
      if (!is2xx(ended)) return skip(`DELETE → ${said(ended)}: the session did not end, so there is nothing to judge`);
      const o = await http.probe('POST', 'ended session', {}, ping('mcp-conformance-ended-session'));
      return expectStatus(o, 404, `DELETE → ${ended.status}, then a request with the ended session's id`, 'fail');
    },
  },
  {
    id: 'transport/http/protocol-version-invalid',
    title: 'An invalid MCP-Protocol-Version header gets 400',
    requirement: requirement(
      'http.protocol-version.bad-400',
      'MUST',
      'basic/transports#protocol-version-header',
      'A request with an invalid or unsupported MCP-Protocol-Version header gets 400 Bad Request',
    ),
    transport: 'http',
    async run(ctx) {
      const version = ctx.profile.protocolVersion;
      if (version < '2025-06-18')
        return skip(`the server negotiated ${version}; the MCP-Protocol-Version header came with 2025-06-18`);
      const { http } = await openSession(ctx);
      const answers = [];
      for (const bad of ['1999-01-01', 'not-a-version']) {
        const o = await http.probe(
          'POST',
          `MCP-Protocol-Version: ${bad}`,
          { 'MCP-Protocol-Version': bad },
          ping(`mcp-conformance-version-${bad}`),
        );
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
    requirement: requirement(
      'http.session.id-charset',
      'MUST',
      SESSIONS,
      'A session id contains only visible ASCII characters (0x21 to 0x7E)',
    ),
    transport: 'http',
    async run(ctx) {
      const http = await identifiedSession(ctx);
      if (!(http instanceof StreamableHttpTransport)) return http;
      const sid = http.sessionId!;
      if (VISIBLE_ASCII.test(sid)) return pass(`session id of ${sid.length} visible ASCII characters`);
      return fail(`the session id ${JSON.stringify(sid)} has characters outside 0x21–0x7E`, {
        expected: 'visible ASCII only',
        actual: sid,
      });
    },
  },
  {
    id: 'transport/http/origin-forbidden',
    title: 'A local server refuses a foreign Origin with 403',
    requirement: requirement(
      'http.origin.validate',
      'MUST',
      SECURITY,
      'Servers validate the Origin header of every connection; a present, invalid Origin gets 403 Forbidden (2025-11-25 and 2026-07-28)',
    ),
    transport: 'http',
    revisions: SCHEMA_REVISIONS,
    async run(ctx) {
      const opener = await localOpener(ctx);
      if (!('send' in opener)) return opener;
      const { o, what } = await foreignOrigin(ctx, opener);
      return refusal(o, what, ctx.profile.protocolVersion);
    },
  },
  {
    id: 'transport/http/dns-rebinding',
    title: 'A local server refuses a DNS-rebinding request, whose Origin matches its Host, with 403',
    requirement: requirement(
      'http.origin.validate',
      'MUST',
      SECURITY,
      "A request from a page on a foreign name that resolves to the local server (Host and Origin both that name's) gets 403 Forbidden: its Origin is invalid",
    ),
    transport: 'http',
    revisions: SCHEMA_REVISIONS,
    async run(ctx) {
      const opener = await localOpener(ctx);
      if (!('send' in opener)) return opener;
      // A server that serves any foreign Origin is origin-forbidden's finding: one fault, one finding.
      if (is2xx((await foreignOrigin(ctx, opener)).o))
        return skip(`a foreign Origin is served whatever the Host (see transport/http/origin-forbidden)`);
      const rebound = new URL(opener.http.url);
      rebound.hostname = FOREIGN_HOST;
      // What the page's browser sends once the name resolves to 127.0.0.1: to it the request is same-origin.
      const page = await opener.send(`Host ${rebound.host} and Origin ${rebound.origin}`, {
        Host: rebound.host,
        Origin: rebound.origin,
      });
      const verdict = refusal(page.o, page.what, ctx.profile.protocolVersion);
      if (verdict.status !== 'pass') return verdict;
      // The spec asks for Origin validation only: whether a foreign Host alone is refused is said, not judged.
      const bare = await opener.send(`Host ${rebound.host}, no Origin`, { Host: rebound.host });
      const host = is2xx(bare.o)
        ? 'a foreign Host without Origin is served (the spec asks only that Origin be validated)'
        : `a foreign Host without Origin → ${said(bare.o)} as well`;
      return pass(`${verdict.message}; ${host}`);
    },
  },
  {
    id: 'transport/http/origin-local',
    title: 'A local server serves requests whose Origin is its own',
    requirement: requirement(
      'http.origin.local-served',
      'MUST',
      SECURITY,
      "Validating Origin tells valid from invalid: a request whose Origin is the local server's own (the origin of the URL it is reached at) is served",
    ),
    transport: 'http',
    revisions: SCHEMA_REVISIONS,
    async run(ctx) {
      const opener = await localOpener(ctx);
      if (!('send' in opener)) return opener;
      // Its own origin only: to a browser, http://localhost:PORT is another origin than http://127.0.0.1:PORT, and a
      // server may refuse it (Go's cross-origin protection does).
      const own = opener.http.url.origin;
      const { o, what } = await opener.send(`Origin ${own}`, { Origin: own });
      if (!is2xx(o))
        return fail(`${what}: the server refuses its own origin, so no local page can use it`, {
          expected: 'a 2xx answer',
          actual: { sent: what, ...actualOf(o) },
        });
      return pass(what);
    },
  },
  {
    id: 'transport/http/content-type',
    title: 'Requests are answered with application/json or text/event-stream',
    requirement: requirement(
      'http.post.request-ctype',
      'MUST',
      SENDING,
      'The answer to a POSTed request is Content-Type application/json (one JSON object) or text/event-stream (an SSE stream)',
    ),
    transport: 'http',
    async run(ctx) {
      const answered = await postsAfterPings(ctx, true, [undefined, {}]);
      const judged = answered.filter(({ o }) => is2xx(o));
      const bad = judged.filter(
        ({ o }) => o.contentType !== 'application/json' && o.contentType !== 'text/event-stream',
      );
      if (bad.length > 0) {
        return fail(`${bad[0]!.what} → ${said(bad[0]!.o)}`, {
          expected: 'application/json or text/event-stream',
          actual: bad.map((b) => ({ sent: b.what, ...actualOf(b.o) })),
        });
      }
      if (judged.length === 0) return skip('no request got a 2xx answer to judge');
      return pass(judged.map(({ what, o }) => `${what} → ${o.contentType}`).join(', '));
    },
  },
  {
    id: 'transport/http/event-id-unique',
    title: 'SSE event ids are unique within a session',
    requirement: requirement(
      'http.sse.event-id-unique',
      'MUST',
      'basic/transports#resumability-and-redelivery',
      'An SSE event id, when present, is unique across all streams of the session',
    ),
    transport: 'http',
    async run(ctx) {
      const { session, http } = await openSession(ctx);
      for (const params of [undefined, {}, undefined]) await session.request('ping', params);
      const ids = http.eventIds;
      if (ids.length === 0) return skip('the server sent no SSE event with an id (ids are optional)');
      const repeated = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
      if (repeated.length > 0)
        return fail(`event id ${JSON.stringify(repeated[0])} was used more than once in one session`, {
          expected: 'distinct event ids',
          actual: ids,
        });
      return pass(`${ids.length} event ids, all distinct`);
    },
  },
];
