// Two Streamable HTTP sessions of one server at once (requirements §1.5): what one session asks for must not reach,
// or change, the other. A server that shares one MCP server object, one notification target or one log level between
// its sessions sends session A's notifications on session B's streams; this probe makes them observable.
import { type CheckContext, type CheckDef, type Outcome, fail, pass, skip, warn } from '../kit/check.js';
import { nextToken, probeRun } from '../conversation/probe.js';
import { requirement } from '../kit/requirement.js';
import { NO_SESSIONS, SENDING, httpOf, isResponse, messagesOf, ping, probeSession, said } from '../kit/http.js';
import type { HttpOutcome } from '../../transport/http-base.js';
import type { StreamableHttpTransport } from '../../transport/http.js';
import { SCHEMA_REVISIONS, STATELESS_REVISION } from '../../schema/revisions.js';
import { isObject } from '../../json.js';

/** How long B's GET stream is read before A acts: what B's own server queued for it (its initialization log) drains. */
const DRAIN_MS = 800;
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

/** The id of progress-isolation's two calls (test/fixtures/servers/faulty-http-server.mjs holds those back). */
const PROGRESS_ID = 'mcp-conformance-progress-isolation';

/** Rounds of colliding requests: a server that shares one stream table answers one round right only by luck of timing. */
const ROUNDS = 3;
/** How long the other client's stream is still read once one client's stream has ended. */
const GRACE_MS = 1000;

/** A client of its own: on the initialize wire a session of probes (without an id where the server mints none). */
interface Client {
  /** The request body as this client sends it. */
  body(id: string, method: string, params?: Record<string, unknown>): string;
  headers: Record<string, string>;
  end(): Promise<void>;
}

/** Two independent clients of one server; a skip when one cannot initialize. */
async function twoClients(ctx: CheckContext): Promise<{ http: StreamableHttpTransport; clients: Client[] } | Outcome> {
  const session = await ctx.fresh();
  const http = httpOf(session);
  const request = (id: string, method: string, params: Record<string, unknown>) =>
    JSON.stringify({ jsonrpc: '2.0', id, method, params });
  // On the stateless wire every POST is a client of its own: the protocol fields go in each request's _meta.
  if (ctx.profile.revision === STATELESS_REVISION) {
    const stateless: Client = {
      body: (id, method, params = {}) =>
        request(id, method, { ...params, _meta: { ...session.requestMeta, ...(params._meta as object) } }),
      headers: {},
      end: async () => {},
    };
    return { http, clients: [stateless, stateless] };
  }
  const clients: Client[] = [];
  for (const name of ['A', 'B']) {
    const s = await probeSession(ctx, http, `initialize client ${name}`);
    if (!s.result) return skip(`initialize by probe → ${said(s.init)}, so there is no second client`);
    clients.push({ body: (id, method, params = {}) => request(id, method, params), headers: s.headers, end: s.end });
  }
  return { http, clients };
}

/** POSTs each body at the same moment, one per client; a stream still open GRACE_MS after another ended is cut there. */
function atOnce(
  ctx: CheckContext,
  http: StreamableHttpTransport,
  clients: Client[],
  bodies: string[],
  labels: string[],
) {
  let ended!: () => void;
  const first = new Promise<void>((resolve) => (ended = resolve));
  const stop = first.then(() => new Promise((resolve) => setTimeout(resolve, GRACE_MS)));
  return Promise.all(
    clients.map((c, i) =>
      http.probe('POST', labels[i]!, c.headers, bodies[i], ctx.timeoutMs, stop).finally(() => ended()),
    ),
  );
}

/** What a result says it answers, by the list it carries: `tools/list`, …, or `ping` for an empty one. */
const LISTS = ['tools', 'prompts', 'resources'] as const;
function answers(m: Record<string, unknown>): string {
  if (!isObject(m.result)) return `an error (${JSON.stringify(m.error)})`;
  const list = LISTS.find((l) => Array.isArray((m.result as Record<string, unknown>)[l]));
  return list ? `${list}/list` : 'ping';
}

export const HTTP_ISOLATION_CHECKS: CheckDef[] = [
  {
    id: 'transport/http/response-routing',
    title: "Two clients' requests with the same id each get their own response",
    requirement: requirement(
      'http.sse.own-response',
      'SHOULD',
      SENDING,
      "The stream a POST opens carries the response to the request that POST sent, whatever another client's request with the same id asked",
    ),
    transport: 'http',
    revisions: [...SCHEMA_REVISIONS],
    fresh: true,
    async run(ctx): Promise<Outcome> {
      const caps = ctx.profile.capabilities;
      // Requests whose results tell them apart; ping (an empty result) only where the wire still has it.
      const methods = [
        ...LISTS.filter((l) => caps[l] !== undefined).map((l) => `${l}/list`),
        ...(ctx.profile.revision === STATELESS_REVISION ? [] : ['ping']),
      ].slice(0, 2);
      if (methods.length < 2)
        return skip('the server declares no tools, prompts or resources: no two safe requests with results told apart');
      const two = await twoClients(ctx);
      if (!('clients' in two)) return two;
      const { http, clients } = two;
      const crossed: unknown[] = [];
      for (let round = 1; round <= ROUNDS && crossed.length === 0; round++) {
        const id = `mcp-conformance-same-id-${round}`;
        const outcomes = await atOnce(
          ctx,
          http,
          clients,
          clients.map((c, i) => c.body(id, methods[i]!)),
          methods.map((m, i) => `client ${'AB'[i]}: ${m} with id ${id}`),
        );
        outcomes.forEach((o, i) => {
          const wrong = messagesOf(o)
            .filter(isResponse)
            .map(answers)
            .filter((a) => a === methods[1 - i]);
          if (wrong.length > 0)
            crossed.push({
              round,
              client: 'AB'[i],
              sent: methods[i],
              got: `the result of ${wrong[0]}`,
              answer: said(o),
            });
        });
      }
      await Promise.all(clients.map((c) => c.end()));
      const what = `${methods.join(' and ')} sent at once by two clients with the same id`;
      if (crossed.length > 0)
        return warn(`${what}: a client's stream carried the other client's response`, {
          expected: "on each client's stream, the response to its own request",
          actual: crossed,
        });
      return pass(`${what}, ${ROUNDS} rounds: each stream carried its own request's response`);
    },
  },
  {
    id: 'transport/http/progress-isolation',
    title: "Progress of one client's tool call reaches that client alone",
    requirement: requirement(
      'prog.token-known',
      'MUST',
      'basic/utilities/progress#behavior-requirements',
      'Progress notifications MUST only reference tokens that were provided in an active request',
    ),
    transport: 'http',
    revisions: [...SCHEMA_REVISIONS],
    fresh: true,
    elsewhere: true,
    slowWork: true,
    async run(ctx): Promise<Outcome> {
      // The run's progress probe found which callable tools report progress (the tool-call policy applied there): its
      // first round tells, without waiting for the calls it makes again at the upper end of their arguments.
      const traces = await (await probeRun(ctx)).traced;
      const tool = traces.find((t) => t.method === 'tools/call' && t.progress.length > 0 && t.reply && !t.timedOut);
      if (!tool) return skip('no tool the run may call reported progress in the progress probe');
      const two = await twoClients(ctx);
      if (!('clients' in two)) return two;
      const { http, clients } = two;
      const tokens = clients.map(() => nextToken());
      // One id for both: a server that keys requests in flight by the id alone sends one call's progress to the other.
      // On the stateless wire too, where every client's ids are its own and nothing else tells two clients apart.
      const ids = clients.map(() => PROGRESS_ID);
      const outcomes = await atOnce(
        ctx,
        http,
        clients,
        clients.map((c, i) =>
          c.body(ids[i]!, 'tools/call', {
            ...tool.params,
            _meta: { progressToken: tokens[i] },
          }),
        ),
        tokens.map(
          (t, i) => `client ${'AB'[i]}: ${tool.label} with id ${ids[i]} and progressToken ${JSON.stringify(t)}`,
        ),
      );
      await Promise.all(clients.map((c) => c.end()));
      const progress = outcomes.map((o) =>
        messagesOf(o).filter((m) => isObject(m) && m.method === 'notifications/progress' && isObject(m.params)),
      ) as { params: Record<string, unknown> }[][];
      const leaks = progress.flatMap((ms, i) =>
        ms
          .filter((m) => m.params.progressToken === tokens[1 - i])
          .map((m) => ({ client: 'AB'[i], own: tokens[i], progress: m.params })),
      );
      const what = `${tool.label} called at once by two clients, with progressToken ${tokens.map((t) => JSON.stringify(t)).join(' and ')}`;
      if (leaks.length > 0)
        return fail(
          `${what}: ${leaks.length} progress notification(s) reached the client that did not send its token`,
          {
            expected: "on each client's stream, progress for its own token only",
            actual: leaks,
          },
        );
      if (progress.every((ms) => ms.length === 0)) return skip(`${what}: neither call reported progress this time`);
      return pass(
        `${what}: ${progress.map((ms, i) => `${ms.length} on ${'AB'[i]}'s stream`).join(', ')}, each for its own token`,
      );
    },
  },
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
      // B's own messages from before its level took hold: on setLevel's stream, then queued for B, drained first. A copy
      // of one on a later answer of B's is B's own again (a broadcast, judged by transport/http/no-broadcast), not A's;
      // on B's GET stream, where A's leak lands, nothing is discounted: A's log may read exactly as B's did.
      const before: HttpOutcome[] = [];
      if (logging) before.push(await post(b, 'B-set-level', 'logging/setLevel', { level: B_LEVEL }));
      before.push(await http.probe('GET', "session B's stream, drained", b.headers, undefined, DRAIN_MS));
      const own = new Set(before.flatMap((o) => messagesOf(o).map((m) => JSON.stringify(m))));
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
      const watched = await get;
      await a.end();
      await b.end();
      const leaks = [
        ...seen.flatMap((o) => messagesOf(o).flatMap((m) => (own.has(JSON.stringify(m)) ? [] : (foreign(m) ?? [])))),
        ...messagesOf(watched).flatMap((m) => foreign(m) ?? []),
      ];
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
