// What Streamable HTTP answers carry (requirements §1.5): JSON replies, the SSE stream of a POSTed request, and
// the standalone GET stream. The stream checks judge one shared probe: a session opened by probes, whose GET
// stream is watched while a ping's SSE stream is read.
import { type CheckContext, type CheckDef, fail, pass, skip, warn } from '../kit/check.js';
import { requirement } from '../kit/requirement.js';
import {
  SENDING,
  openSession,
  actualOf,
  eventsOf,
  httpOf,
  is2xx,
  isResponse,
  messagesOf,
  parsed,
  ping,
  postsAfterPings,
  probeSession,
  said,
} from '../kit/http.js';
import type { HttpOutcome } from '../../transport/http-base.js';
import type { SseEvent } from '../../transport/sse-parser.js';
import { isObject } from '../../json.js';
import { SCHEMA_REVISIONS, STATELESS_REVISION } from '../../schema/revisions.js';

/** How long the probe reads the ping's stream, at least: long enough for a server to answer a ping. */
const STREAM_WAIT_MS = 3000;
/** A loaded machine or a busy server answers slower: the window is this many of the probe's initialize round trips, up to --timeout. */
const ROUND_TRIPS = 4;
/** How long it watches the GET stream meanwhile (which may stay open for good), at most. */
const WATCH_MS = 2000;
/** How long the GET stream is still watched once the ping's stream has ended: what the server sends after it. */
const AFTER_MS = 300;
const PROBE_ID = 'mcp-conformance-stream';
/** The requests POSTed at once: their ids start so, and how many. */
const CONCURRENT_ID = 'mcp-conformance-concurrent-';
const CONCURRENT = 3;
/** How long a GET with Last-Event-ID is read: a server that does not resume may hold it open as the standalone stream. */
const RESUME_WAIT_MS = 1000;
const RESUME_IDS = ['mcp-conformance-resume-a', 'mcp-conformance-resume-b'] as const;
const RESUMABILITY = 'basic/transports#resumability-and-redelivery';
const LISTENING = 'basic/transports#listening-for-messages-from-the-server';

interface Watched {
  /** The ping's answer, read for up to `waitMs`. */
  post: HttpOutcome;
  /** The GET stream's, read meanwhile. */
  get: HttpOutcome;
  /** How long the ping's stream was read, at most. */
  waitMs: number;
}

/** The shared probe, or why there is none. */
function watchStreams(ctx: CheckContext): Promise<Watched | string> {
  return ctx.memo('transport/http/streams', async () => {
    const http = httpOf(await ctx.fresh());
    const t0 = performance.now();
    const s = await probeSession(ctx, http, 'initialize, to watch the streams');
    if (!s.result) return `initialize by probe → ${said(s.init)}, so there are no streams to watch`;
    const waitMs = Math.round(
      Math.min(ctx.timeoutMs, Math.max(STREAM_WAIT_MS, ROUND_TRIPS * (performance.now() - t0))),
    );
    let pinged!: () => void;
    const stop = new Promise<void>((resolve) => (pinged = resolve));
    const get = http.probe(
      'GET',
      'the standalone stream, watched',
      s.headers,
      undefined,
      Math.max(WATCH_MS, waitMs),
      stop,
    );
    const post = await http.probe('POST', 'ping, its stream watched', s.headers, ping(PROBE_ID), waitMs);
    setTimeout(pinged, AFTER_MS);
    const watched = { post, get: await get, waitMs };
    await s.end();
    return watched;
  });
}

/** The ping's answer and its SSE events, or why there are none. */
async function pingStream(
  ctx: CheckContext,
): Promise<{ post: HttpOutcome; events: SseEvent[]; waitMs: number } | string> {
  const w = await watchStreams(ctx);
  if (typeof w === 'string') return w;
  if (w.post.error !== undefined)
    return `the ping got no answer within ${w.waitMs} ms (${w.post.error}): no stream to judge`;
  if (w.post.contentType !== 'text/event-stream')
    return `the ping was answered with ${said(w.post)}, not an SSE stream`;
  return { post: w.post, events: eventsOf(w.post), waitMs: w.waitMs };
}

const answersProbe = (e: SseEvent) => {
  const m = parsed(e.data);
  return isResponse(m) && m.id === PROBE_ID;
};

/** The ids of the server requests a stream carried: one request sent on two streams repeats its id. */
function requestIds(o: HttpOutcome): string[] {
  return messagesOf(o).flatMap((m) =>
    isObject(m) && typeof m.method === 'string' && 'id' in m ? [JSON.stringify(m.id)] : [],
  );
}

/** Why an event's data is not one JSON-RPC message (in 2025-03-26, or a batch of them), or undefined. */
function notJsonRpc(data: string, version: string): string | undefined {
  const m = parsed(data);
  if (m === undefined) return 'not JSON';
  const one = (x: unknown) =>
    isObject(x) && x.jsonrpc === '2.0' && (typeof x.method === 'string' || 'result' in x || 'error' in x);
  if (Array.isArray(m))
    return version === '2025-03-26' && m.length > 0 && m.every(one)
      ? undefined
      : `a JSON array in a ${version} session`;
  return one(m) ? undefined : 'JSON, but not a JSON-RPC message';
}

/** Several requests POSTed at once, each read whole (up to --timeout): what each was, and its answer. */
async function concurrentPosts(ctx: CheckContext): Promise<{ id: string; what: string; o: HttpOutcome }[]> {
  // A request any server answers without a capability: ping, or server/discover on the stateless wire (no ping there).
  const stateless = ctx.profile.protocolVersion === STATELESS_REVISION;
  const session = stateless ? await ctx.fresh() : (await openSession(ctx)).session;
  const http = httpOf(session);
  const method = stateless ? 'server/discover' : 'ping';
  const params = stateless ? { _meta: session.requestMeta } : undefined;
  const ids = Array.from({ length: CONCURRENT }, (_, i) => `${CONCURRENT_ID}${i + 1}`);
  return Promise.all(
    ids.map(async (id) => {
      const what = `${method} ${JSON.stringify(id)}`;
      const body = JSON.stringify({ jsonrpc: '2.0', id, method, ...(params && { params }) });
      return {
        id,
        what,
        o: await http.probe('POST', `${what}, sent at once with the others`, {}, body, ctx.timeoutMs),
      };
    }),
  );
}

export const HTTP_STREAM_CHECKS: CheckDef[] = [
  {
    id: 'transport/http/json-one',
    title: 'A JSON answer to a request is one response with its id',
    requirement: requirement(
      'http.post.json-one',
      'MUST',
      SENDING,
      "A request answered with Content-Type application/json gets one JSON object: the response, with the request's id",
    ),
    transport: 'http',
    async run(ctx) {
      const answers = await postsAfterPings(ctx, true);
      const json = answers.filter(({ o }) => is2xx(o) && o.contentType === 'application/json');
      if (json.length === 0) return skip('no request was answered with application/json (all with SSE streams)');
      const wrong = json.flatMap(({ text, what, o }) => {
        const sent = parsed(text);
        const m = parsed(o.body);
        const id = isObject(sent) ? sent.id : undefined;
        // A batch gets an array back (2025-03-26); one request gets one object.
        if (Array.isArray(sent)) return Array.isArray(m) ? [] : [`the batch → ${o.body.slice(0, 80)}`];
        if (!isResponse(m))
          return [`${what} → ${Array.isArray(m) ? 'a JSON array' : 'no JSON-RPC response'}: ${o.body.slice(0, 80)}`];
        return m.id === id ? [] : [`${what} → a response with id ${JSON.stringify(m.id)}, not ${JSON.stringify(id)}`];
      });
      if (wrong.length > 0)
        return fail(wrong[0]!, { expected: "one JSON-RPC response object with the request's id", actual: wrong });
      return pass(`${json.map((j) => j.what).join(', ')} → one response object each, with the right id`);
    },
  },
  {
    id: 'transport/http/sse-response',
    title: 'The SSE stream of a request brings its response',
    requirement: requirement(
      'http.sse.eventually-response',
      'SHOULD',
      SENDING,
      'The SSE stream a server opens for a POSTed request eventually includes the response to it (before 2025-11-25: and is not closed before)',
    ),
    covers: ['http.sse.no-early-close'],
    transport: 'http',
    async run(ctx) {
      const stream = await pingStream(ctx);
      if (typeof stream === 'string') return skip(stream);
      const { post, events } = stream;
      if (events.some(answersProbe)) return pass(`the ping's stream brought its response (${events.length} events)`);
      if (post.cut)
        return warn(`the ping's stream brought no response within ${stream.waitMs} ms`, {
          expected: "the ping's response on its stream",
          actual: actualOf(post),
        });
      // From 2025-11-25 a server may close a resumable stream early and deliver later, through a GET with Last-Event-ID.
      if (ctx.profile.protocolVersion >= '2025-11-25' && events.some((e) => e.id !== undefined)) {
        return skip(
          "the server closed the ping's resumable stream before its response, as 2025-11-25 allows; resuming it is not tested",
        );
      }
      return warn("the ping's stream ended without its response", {
        expected: "the ping's response on its stream",
        actual: actualOf(post),
      });
    },
  },
  {
    id: 'transport/http/sse-terminate',
    title: 'The SSE stream of a request ends after its response',
    requirement: requirement(
      'http.sse.terminate-after',
      'SHOULD',
      SENDING,
      'Once the response to the POSTed request has been sent, the server terminates the SSE stream',
    ),
    transport: 'http',
    async run(ctx) {
      const stream = await pingStream(ctx);
      if (typeof stream === 'string') return skip(stream);
      if (!stream.events.some(answersProbe))
        return skip(`the ping's stream brought no response within ${stream.waitMs} ms, so there is no end to expect`);
      if (stream.post.cut)
        return warn(`the ping's stream was still open ${stream.waitMs} ms after the ping, its response sent`, {
          expected: 'the stream closed after the response',
          actual: actualOf(stream.post),
        });
      return pass("the ping's stream ended after its response");
    },
  },
  {
    id: 'transport/http/sse-prime',
    title: 'The SSE stream of a request starts with a priming event',
    requirement: requirement(
      'http.sse.prime',
      'SHOULD',
      SENDING,
      'A server that opens an SSE stream for a request immediately sends an event with an event ID and an empty data field, so the client can resume',
    ),
    transport: 'http',
    revisions: ['2025-11-25'],
    async run(ctx) {
      const stream = await pingStream(ctx);
      if (typeof stream === 'string') return skip(stream);
      const { events } = stream;
      const first = events[0];
      if (first?.id !== undefined && first.hasData && first.data === '')
        return pass(`the ping's stream opened with event id ${JSON.stringify(first.id)} and empty data`);
      const got =
        first === undefined
          ? 'no event'
          : `an event with ${first.id === undefined ? 'no id' : `id ${JSON.stringify(first.id)}`} and ${first.hasData ? `data ${JSON.stringify(first.data.slice(0, 80))}` : 'no data'}`;
      return warn(`the ping's stream opened with ${got}`, {
        expected: 'a first event with an id and an empty data field',
        actual: events.slice(0, 3),
      });
    },
  },
  {
    id: 'transport/http/sse-retry',
    title: 'A stream closed before its response first sends a retry field',
    requirement: requirement(
      'http.sse.retry',
      'SHOULD',
      SENDING,
      "A server that closes an SSE stream's connection before the stream is done (its response not yet sent) first sends an event with a retry field, so the client knows when to poll",
    ),
    transport: 'http',
    revisions: ['2025-11-25'],
    async run(ctx) {
      const stream = await pingStream(ctx);
      if (typeof stream === 'string') return skip(stream);
      const { post, events } = stream;
      if (post.cut)
        return skip(`the ping's stream was still open after ${stream.waitMs} ms: no closed connection to judge`);
      if (events.some(answersProbe))
        return skip("the ping's stream ended after its response: the server closed no connection early");
      // Without an event id there is nothing to resume: an early end is transport/http/sse-response's to judge.
      if (!events.some((e) => e.id !== undefined))
        return skip("the ping's stream ended early without an event id: it is not resumable, so no polling to judge");
      const retry = events.find((e) => e.retry !== undefined);
      if (retry) return pass(`the ping's stream was closed before its response, after retry ${retry.retry} ms`);
      return warn("the ping's stream was closed before its response without a retry field", {
        expected: 'an event with a retry field before the connection closed',
        actual: events,
      });
    },
  },
  {
    id: 'transport/http/sse-data',
    title: 'Every SSE event with data holds one JSON-RPC message',
    requirement: requirement(
      'http.sse.data-jsonrpc',
      'MUST',
      SENDING,
      'The data of each SSE event the server sends (but an empty priming event) is one JSON-RPC message (2025-03-26: or a batch of them)',
    ),
    transport: 'http',
    async run(ctx) {
      const w = await watchStreams(ctx);
      if (typeof w === 'string') return skip(w);
      const version = ctx.profile.protocolVersion;
      const streams = [
        { name: "the ping's stream", events: eventsOf(w.post) },
        { name: 'the GET stream', events: eventsOf(w.get) },
      ];
      const judged = streams.flatMap(({ name, events }) =>
        events
          .filter((e) => e.data.trim() !== '')
          .map((e) => ({ name, data: e.data, why: notJsonRpc(e.data, version) })),
      );
      if (judged.length === 0) return skip('no SSE event with data was seen');
      const bad = judged.filter((j) => j.why !== undefined);
      if (bad.length > 0)
        return fail(`an event on ${bad[0]!.name} holds ${bad[0]!.why}: ${JSON.stringify(bad[0]!.data.slice(0, 80))}`, {
          expected: 'one JSON-RPC message per event',
          actual: bad.map(({ name, data }) => ({ stream: name, data })),
        });
      return pass(`${judged.length} SSE event(s) with data, each one JSON-RPC message`);
    },
  },
  {
    id: 'transport/http/get-no-response',
    title: 'The standalone GET stream carries no responses',
    requirement: requirement(
      'http.get.no-response',
      'MUST',
      LISTENING,
      'The server sends no JSON-RPC response on the standalone GET stream (unless resuming a stream)',
    ),
    transport: 'http',
    async run(ctx) {
      const w = await watchStreams(ctx);
      if (typeof w === 'string') return skip(w);
      if (!(is2xx(w.get) && w.get.contentType === 'text/event-stream'))
        return skip(`the GET got ${said(w.get)}: no stream to watch`);
      const messages = messagesOf(w.get).filter(isObject);
      const responses = messages.filter(isResponse);
      if (responses.length > 0)
        return fail(
          `the GET stream carried ${responses.length} response(s), e.g. to ${JSON.stringify(responses[0]!.id)}`,
          { expected: 'requests and notifications only', actual: responses },
        );
      return pass(
        `the GET stream carried ${messages.length} message(s) in ${Math.max(WATCH_MS, w.waitMs)} ms while a ping was answered, none a response`,
      );
    },
  },
  {
    id: 'transport/http/concurrent-streams',
    title: 'Requests POSTed at once each get an answer of their own',
    requirement: requirement(
      'http.multi.streams',
      'MUST',
      'basic/transports#multiple-connections',
      'Several requests POSTed at once (a client may hold several SSE streams) each get a 2xx answer, JSON or a stream of their own, carrying their own response and no other',
    ),
    transport: 'http',
    revisions: SCHEMA_REVISIONS,
    async run(ctx) {
      const answers = await concurrentPosts(ctx);
      const refused = answers.filter(({ o }) => !is2xx(o));
      if (refused.length > 0)
        return fail(`${refused[0]!.what} → ${said(refused[0]!.o)} while ${CONCURRENT - 1} others were under way`, {
          expected: 'a 2xx answer to each',
          actual: answers.map(({ what, o }) => ({ sent: what, ...actualOf(o) })),
        });
      const ids = answers.map((a) => a.id);
      const crossed = answers.flatMap(({ id, what, o }) =>
        messagesOf(o)
          .filter(isResponse)
          .filter((m) => m.id !== id && ids.includes(m.id as string))
          .map((m) => `${what}'s answer carried the response to ${JSON.stringify(m.id)}`),
      );
      if (crossed.length > 0)
        return fail(crossed[0]!, { expected: 'each answer with its own response only', actual: crossed });
      const unanswered = answers.filter(({ id, o }) => !messagesOf(o).some((m) => isResponse(m) && m.id === id));
      if (unanswered.length > 0)
        return warn(`${unanswered[0]!.what} → ${said(unanswered[0]!.o)} without its response`, {
          expected: 'each answer with its own response',
          actual: unanswered.map(({ what, o }) => ({ sent: what, ...actualOf(o) })),
        });
      return pass(
        `${CONCURRENT} requests at once: ${answers.map(({ o }) => `${o.status} ${o.contentType}`).join(', ')}, each with its own response`,
      );
    },
  },
  {
    id: 'transport/http/no-broadcast',
    title: 'No message is sent on more than one stream',
    requirement: requirement(
      'http.multi.no-broadcast',
      'MUST',
      'basic/transports#multiple-connections',
      'The server sends each of its messages on one stream only, never broadcast across the streams of a session',
    ),
    transport: 'http',
    async run(ctx) {
      const w = await watchStreams(ctx);
      if (typeof w === 'string') return skip(w);
      if (!(is2xx(w.get) && w.get.contentType === 'text/event-stream'))
        return skip(`the GET got ${said(w.get)}: only one stream to watch`);
      // A repeated event id is transport/http/event-id-unique's to judge; here, a server request seen twice.
      const [post, get] = [requestIds(w.post), requestIds(w.get)];
      const both = post.filter((id) => get.includes(id));
      if (both.length > 0)
        return fail(`the server request with id ${both[0]} came on both the ping's stream and the GET stream`, {
          expected: 'each message on one stream',
          actual: { requestIds: both },
        });
      if (post.length + get.length === 0) return skip('neither stream carried a server request to compare');
      return pass(
        `the ${post.length + get.length} server request(s) on the ping's stream and the GET stream each came on one stream`,
      );
    },
  },
  {
    id: 'transport/http/resume-same-stream',
    title: 'Resuming a stream with Last-Event-ID replays that stream only',
    requirement: requirement(
      'http.resume.same-stream',
      'MUST',
      RESUMABILITY,
      "A GET with Last-Event-ID replays, if anything, what followed that event on its own stream: never another stream's messages",
    ),
    covers: ['http.resume.via-get'],
    transport: 'http',
    async run(ctx) {
      const http = httpOf(await ctx.fresh());
      const s = await probeSession(ctx, http, 'initialize, to resume a stream');
      if (!s.result) return skip(`initialize by probe → ${said(s.init)}, so there is no stream to resume`);
      try {
        // Two streams, one after the other: the first is resumed from its first event, the second must stay out of it.
        const streams = [];
        for (const id of RESUME_IDS)
          streams.push(await http.probe('POST', `ping ${id}`, s.headers, ping(id), ctx.timeoutMs));
        const from = eventsOf(streams[0]!).find((e) => e.id !== undefined)?.id;
        if (from === undefined)
          return skip(
            `the ping was answered with ${said(streams[0]!)} and no SSE event id: the server offers no resumption`,
          );
        const g = await http.probe(
          'GET',
          `resume from event ${from}`,
          { ...s.headers, 'Last-Event-ID': from },
          undefined,
          RESUME_WAIT_MS,
        );
        if (!(is2xx(g) && g.contentType === 'text/event-stream'))
          return pass(
            `GET with Last-Event-ID ${JSON.stringify(from)} → ${said(g)}: the server resumes no stream (it may not)`,
          );
        const replayed = messagesOf(g).filter(isResponse);
        const other = replayed.filter((m) => m.id === RESUME_IDS[1]);
        if (other.length > 0)
          return fail(
            `resuming ${RESUME_IDS[0]}'s stream from event ${JSON.stringify(from)} replayed the response to ${RESUME_IDS[1]}, sent on another stream`,
            {
              expected: `only messages of ${RESUME_IDS[0]}'s stream`,
              actual: replayed,
            },
          );
        const own = replayed.some((m) => m.id === RESUME_IDS[0]);
        return pass(
          `GET with Last-Event-ID ${JSON.stringify(from)} → ${said(g)}: ${own ? `replayed ${RESUME_IDS[0]}'s response` : 'replayed no response'}, nothing of the other stream`,
        );
      } finally {
        await s.end();
      }
    },
  },
];
