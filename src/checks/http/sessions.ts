// Streamable HTTP sessions and the headers around them (requirements §1.5): what a refused notification, new
// session ids, DELETE and a missing MCP-Protocol-Version header get.
import { type CheckDef, fail, pass, skip, warn } from '../kit/check.js';
import { requirement } from '../kit/requirement.js';
import {
  FABRICATED_SESSION,
  NO_SESSIONS,
  SESSIONS,
  SENDING,
  actualOf,
  httpOf,
  identifiedSession,
  is2xx,
  isResponse,
  messagesOf,
  ping,
  probeSession,
  said,
} from '../kit/http.js';
import { StreamableHttpTransport } from '../../transport/http.js';

/** Sessions opened to compare their ids. */
const SESSIONS_COMPARED = 4;
/** Shorter session ids are guessable (requirements §1.5 http.session.id-secure: about 16 characters). */
const MIN_SESSION_ID = 16;
const VERSION_HEADER = 'basic/transports#protocol-version-header';

/** Why these session ids look guessable (a heuristic), or undefined. */
function guessable(ids: string[]): string | undefined {
  if (new Set(ids).size < ids.length) return 'the same id was issued twice';
  const short = ids.find((id) => id.length < MIN_SESSION_ID);
  if (short !== undefined) return `${JSON.stringify(short)} has fewer than ${MIN_SESSION_ID} characters`;
  if (ids.every((id) => /^\d+$/.test(id))) return 'they are plain numbers';
  // Ids that differ only in a number in the same place count up.
  let prefix = 0;
  while (ids.every((id) => prefix < id.length && id[prefix] === ids[0]![prefix])) prefix++;
  let suffix = 0;
  while (ids.every((id) => id.length - suffix > prefix && id.at(-1 - suffix) === ids[0]!.at(-1 - suffix))) suffix++;
  if (ids.every((id) => /^\d+$/.test(id.slice(prefix, id.length - suffix)))) return 'they differ only in a counter';
  return undefined;
}

export const HTTP_SESSION_CHECKS: CheckDef[] = [
  {
    id: 'transport/http/notification-reject',
    title: 'A notification the server cannot accept gets an HTTP error status',
    requirement: requirement(
      'http.post.notification-reject',
      'MUST',
      SENDING,
      'A notification or response the server cannot accept is answered with an HTTP error status (e.g. 400 Bad Request)',
    ),
    transport: 'http',
    async run(ctx) {
      const http = await identifiedSession(ctx, ', so a notification cannot name a wrong one');
      if (!(http instanceof StreamableHttpTransport)) return http;
      const body = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
      const o = await http.probe(
        'POST',
        'notification with an unknown Mcp-Session-Id',
        { 'Mcp-Session-Id': FABRICATED_SESSION },
        body,
      );
      const what = `a notification for a session the server never issued → ${said(o)}`;
      if (o.status !== undefined && o.status >= 400) return pass(what);
      return fail(what, { expected: 'an HTTP error status (4xx or 5xx)', actual: actualOf(o) });
    },
  },
  {
    id: 'transport/http/session-id-secure',
    title: 'Session ids are unique and not guessable',
    requirement: requirement(
      'http.session.id-secure',
      'SHOULD',
      SESSIONS,
      'A session id is globally unique and cryptographically secure (a UUID, a JWT or a cryptographic hash); the security best practices make non-deterministic ids a MUST',
    ),
    transport: 'http',
    async run(ctx) {
      const http = httpOf(await ctx.fresh());
      const sessions = [];
      for (let i = 0; i < SESSIONS_COMPARED; i++)
        sessions.push(await probeSession(ctx, http, `initialize #${i + 1} of ${SESSIONS_COMPARED}`));
      for (const s of sessions) await s.end();
      const ids = sessions.flatMap((s) => (s.sessionId === undefined ? [] : [s.sessionId]));
      if (ids.length === 0) return skip(NO_SESSIONS);
      const why = guessable(ids);
      // Guessing is a heuristic: the spec asks for secure ids, and these only look insecure.
      if (why)
        return warn(`${ids.length} new sessions look guessable: ${why}`, {
          expected: `distinct random ids of ${MIN_SESSION_ID} or more characters`,
          actual: ids,
        });
      return pass(
        `${ids.length} new sessions got distinct ids of ${Math.min(...ids.map((id) => id.length))}+ characters that do not count up`,
      );
    },
  },
  {
    id: 'transport/http/session-delete',
    title: 'DELETE ends the session or gets 405',
    requirement: requirement(
      'http.session.delete',
      'MAY',
      SESSIONS,
      'A DELETE with the session id ends the session; a server that does not let clients end sessions answers 405 Method Not Allowed',
    ),
    transport: 'http',
    async run(ctx) {
      const http = await identifiedSession(ctx);
      if (!(http instanceof StreamableHttpTransport)) return http;
      const o = await http.probe('DELETE', 'end the session');
      if (is2xx(o)) return pass(`DELETE → ${o.status}: the session ended`);
      if (o.status === 405) return pass('DELETE → 405: the server does not let clients end sessions');
      // The spec names no other answer, so another one is a warning.
      return warn(`DELETE → ${said(o)}`, { expected: 'a 2xx status, or HTTP 405', actual: actualOf(o) });
    },
  },
  {
    id: 'transport/http/protocol-version-missing',
    title: 'Requests without MCP-Protocol-Version are served',
    requirement: requirement(
      'http.protocol-version.missing',
      'SHOULD',
      VERSION_HEADER,
      'A server that gets no MCP-Protocol-Version header (and has no other way to tell) assumes 2025-03-26 rather than refusing the request',
    ),
    covers: ['http.protocol-version.init'],
    transport: 'http',
    revisions: ['2025-11-25', '2025-06-18'],
    async run(ctx) {
      const http = httpOf(await ctx.fresh());
      // Only requests after initialize carry the header.
      const s = await probeSession(ctx, http, 'initialize without MCP-Protocol-Version');
      if (!s.result)
        return fail(`initialize without MCP-Protocol-Version → ${said(s.init)}`, {
          expected: 'an initialize result',
          actual: actualOf(s.init),
        });
      const o = await http.probe(
        'POST',
        'ping without MCP-Protocol-Version',
        { ...s.headers, 'MCP-Protocol-Version': undefined },
        ping('mcp-conformance-no-version'),
      );
      await s.end();
      const served = is2xx(o) && messagesOf(o).some((m) => isResponse(m) && 'result' in m);
      if (served) return pass(`initialize and then ping without MCP-Protocol-Version → ${o.status}, answered`);
      return warn(`ping without MCP-Protocol-Version → ${said(o)}`, {
        expected: 'the ping answered (the server assumes 2025-03-26)',
        actual: actualOf(o),
      });
    },
  },
];
