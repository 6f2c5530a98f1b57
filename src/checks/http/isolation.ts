// Two Streamable HTTP sessions of one server at once (requirements §1.5): what one session asks for must not reach,
// or change, the other. A server that shares one MCP server object, one notification target or one log level between
// its sessions sends session A's notifications on session B's streams; this probe makes them observable.
import { type CheckDef, type Outcome, pass, skip, warn } from '../kit/check.js';
import { requirement } from '../kit/requirement.js';
import { NO_SESSIONS, SENDING, httpOf, messagesOf, ping, probeSession, said } from '../kit/http.js';
import type { HttpOutcome } from '../../transport/http-base.js';
import { isObject } from '../../json.js';

/** How long B's GET stream is read before A acts: what B's own server queued for it (its initialization log) drains. */
const DRAIN_MS = 300;
/** How long B's GET stream is watched while A acts, at least, and after B's own ping was answered. */
const WATCH_MS = 1000;
const AFTER_MS = 300;
/** B's threshold: any log below it on B's streams was not meant for B. */
const B_LEVEL = 'emergency';

/** A JSON-RPC notification session B did not ask for, described; undefined for any other message. */
function foreign(m: unknown): string | undefined {
  if (!isObject(m) || 'id' in m || !isObject(m.params)) return undefined;
  if (m.method === 'notifications/resources/updated')
    return `notifications/resources/updated for ${JSON.stringify(m.params.uri)}, which only session A subscribed to`;
  if (m.method === 'notifications/message' && m.params.level !== B_LEVEL)
    return `a log at level ${JSON.stringify(m.params.level)}, below the "${B_LEVEL}" session B set (session A set "debug")`;
  return undefined;
}

export const HTTP_ISOLATION_CHECKS: CheckDef[] = [
  {
    id: 'transport/http/session-isolation',
    title: "One session's subscriptions and log level do not reach another session's streams",
    requirement: requirement(
      'http.session.isolation',
      'SHOULD',
      SENDING,
      'What one session asks for (a resource subscription, a log level) is delivered to that session alone: another session that never subscribed gets no resource update for it, and keeps its own log level',
    ),
    transport: 'http',
    revisions: ['2025-03-26', '2025-06-18', '2025-11-25'],
    fresh: true,
    async run(ctx): Promise<Outcome> {
      const http = httpOf(await ctx.fresh());
      const b = await probeSession(ctx, http, 'initialize session B, the one watched');
      if (!b.result) return skip(`initialize by probe → ${said(b.init)}, so there is no session to watch`);
      // Without sessions the server cannot tell two clients apart: a log level is everyone's.
      if (b.sessionId === undefined) return skip(`${NO_SESSIONS}, so no state belongs to one session`);
      const caps = isObject(b.result.capabilities) ? b.result.capabilities : {};
      const logging = isObject(caps.logging);
      const uri = isObject(caps.resources) && caps.resources.subscribe === true && ctx.profile.resources[0]?.uri;
      if (!logging && !uri)
        return skip(
          'the server declares neither logging nor resource subscriptions with a listed resource: nothing one session asks for shows on another',
        );
      const post = (s: typeof b, label: string, method: string, params: unknown) =>
        http.probe(
          'POST',
          label,
          s.headers,
          JSON.stringify({ jsonrpc: '2.0', id: `mcp-conformance-${label}`, method, params }),
          ctx.timeoutMs,
        );
      const seen: HttpOutcome[] = [];
      if (logging) seen.push(await post(b, 'B-set-level', 'logging/setLevel', { level: B_LEVEL }));
      // What B's server sent before B's level was set goes first, on a stream of its own.
      await http.probe('GET', "session B's stream, drained", b.headers, undefined, DRAIN_MS);
      let done!: () => void;
      const stop = new Promise<void>((resolve) => (done = resolve));
      const get = http.probe('GET', "session B's stream, watched", b.headers, undefined, ctx.timeoutMs, stop);
      // The GET stream is open once the server has had a round trip to take it.
      seen.push(await http.probe('POST', 'B ping before A acts', b.headers, ping('mcp-conformance-B-ping-1')));
      const a = await probeSession(ctx, http, 'initialize session A, which acts');
      if (logging) await post(a, 'A-set-level', 'logging/setLevel', { level: 'debug' });
      if (uri) await post(a, 'A-subscribe', 'resources/subscribe', { uri });
      await new Promise((resolve) => setTimeout(resolve, WATCH_MS));
      seen.push(await http.probe('POST', 'B ping after A acted', b.headers, ping('mcp-conformance-B-ping-2')));
      setTimeout(done, AFTER_MS);
      seen.push(await get);
      await a.end();
      await b.end();
      const leaks = seen.flatMap((o) => messagesOf(o).flatMap((m) => foreign(m) ?? []));
      const did = [logging && `set log level "${B_LEVEL}" in B and "debug" in A`, uri && `subscribed to ${uri} in A`]
        .filter(Boolean)
        .join(', ');
      if (leaks.length > 0)
        return warn(`${did}: session B's streams carried ${leaks.length} message(s) it did not ask for`, {
          expected: 'on session B, no resource update it did not subscribe to and no log below its own level',
          actual: leaks,
        });
      return pass(`${did}: nothing of session A's reached session B's GET stream or its answers`);
    },
  },
];
