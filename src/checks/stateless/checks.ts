// Checks and frame rules of the stateless wire (2026-07-28, requirements §1.21): they apply to no other revision.
import { LISTS } from '../../discovery/discover.js';
import { REVISIONS, STATELESS_REVISION, validate, shapeBroken } from '../../schema/validators.js';
import { RequestTimeout, type InboundEvent, type RequestId } from '../../session/session.js';
import {
  type CheckContext,
  type CheckDef,
  type Outcome,
  describeReply,
  errorOf,
  expectCode,
  fail,
  pass,
  resultOf,
  skip,
  warn,
  worst,
} from '../kit/check.js';
import { requirement } from '../kit/requirement.js';
import { isObject } from '../../json.js';
import { HttpTransport } from '../../transport/http-base.js';
import { TASKS_EXTENSION } from '../tasks-ext/checks.js';
import {
  ANSWERABLE,
  INPUT_CAPABILITY,
  MRTR_RETRY,
  capabilitiesMeta,
  inputProbe,
  inputRequestsOf,
  promptProbes,
  retried,
  toolCall,
  CLIENT_CAPABILITIES,
  PROTOCOL_VERSION,
} from './mrtr.js';
import { MRTR_RETRY_CHECKS } from './mrtr-retries.js';
import { fixedWait } from '../../timing.js';

const only07 = [STATELESS_REVISION];

/** A request without a required protocol field in _meta is malformed (basic#per-request-protocol-fields). */
const META_REQUIRED = requirement(
  '07.meta.required',
  'MUST',
  'basic#per-request-protocol-fields',
  'A request whose _meta lacks io.modelcontextprotocol/protocolVersion or …/clientCapabilities (each required) is malformed and rejected with -32602',
  STATELESS_REVISION,
);

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
const CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
/** How long a subscription check watches the stream after its acknowledgement. */
const LISTEN_WATCH_MS = 300;
/** The subscription filter key of each notification type a listen stream may carry. */
const SUBSCRIPTION_TYPES: Record<string, string> = {
  'notifications/tools/list_changed': 'toolsListChanged',
  'notifications/prompts/list_changed': 'promptsListChanged',
  'notifications/resources/list_changed': 'resourcesListChanged',
  'notifications/resources/updated': 'resourceSubscriptions',
};

/**
 * Every list the server declares, walked on the run's second connection as its first requests: the checks that compare
 * lists across connections share it (over stdio a connection is a server process, which the progress probe and the
 * listen stream share too: each request carries its own state).
 */
const listsElsewhere = async (ctx: CheckContext) => (await ctx.elsewhere()).lists;

export const STATELESS_CHECKS: CheckDef[] = [
  {
    id: 'stateless/discover/result',
    title: 'server/discover answers with a valid DiscoverResult naming 2026-07-28',
    requirement: requirement(
      '07.discover',
      'MUST',
      'server/discover',
      'server/discover returns resultType, supportedVersions, capabilities, ttlMs and cacheScope; serverInfo SHOULD be in _meta',
      STATELESS_REVISION,
    ),
    covers: ['07.serverInfo'],
    revisions: only07,
    async run(ctx) {
      const result = ctx.profile.initializeResult;
      const valid = validate(STATELESS_REVISION, 'DiscoverResult', result);
      if (shapeBroken(valid))
        return fail('the server/discover result is not a valid DiscoverResult', {
          expected: 'a valid DiscoverResult',
          actual: valid.errors,
        });
      const versions = result.supportedVersions as string[];
      if (!versions.includes(STATELESS_REVISION))
        return fail(`supportedVersions ${JSON.stringify(versions)} lacks ${STATELESS_REVISION}`, { actual: versions });
      if (!isObject(result._meta) || !isObject(result._meta[SERVER_INFO]))
        return warn(`no ${SERVER_INFO} in the result's _meta`, {
          expected: { _meta: { [SERVER_INFO]: '{ name, version }' } },
          actual: result._meta,
        });
      return pass(`supports ${versions.join(', ')}`);
    },
  },
  {
    id: 'stateless/meta/required',
    scratch: true,
    title: 'A request whose _meta lacks only clientCapabilities is rejected with -32602',
    requirement: META_REQUIRED,
    revisions: only07,
    async run(ctx) {
      const session = await ctx.ownSession();
      // Undefined drops the key from the frame the session sends; server/discover is the one method every server has.
      const reply = await session.request('server/discover', { _meta: { [CLIENT_CAPABILITIES]: undefined } });
      return expectCode(reply, -32602, 'server/discover without clientCapabilities in _meta', 'fail');
    },
  },
  {
    id: 'stateless/meta/protocol-version-required',
    scratch: true,
    title: 'A request whose _meta lacks only protocolVersion is rejected with -32602',
    requirement: META_REQUIRED,
    revisions: only07,
    async run(ctx) {
      const session = await ctx.ownSession();
      // server/discover exists on the stateless wire only, so not even a dual-era server may take it for a legacy request.
      const reply = await session.request('server/discover', { _meta: { [PROTOCOL_VERSION]: undefined } });
      const what = 'server/discover without protocolVersion in _meta';
      // Over HTTP the MCP-Protocol-Version header still names the version the body lacks: header and body disagree,
      // which HeaderMismatch answers as rightly (streamable-http#server-validation).
      if (session.transport instanceof HttpTransport && errorOf(reply)?.code === -32020)
        return pass(`${what} → -32020 (its MCP-Protocol-Version header names a version the body lacks)`);
      // Without its version a request may be read as one of an earlier revision, where server/discover is unknown
      // (or, over HTTP, needs a session): a server that speaks both eras cannot be held to the stateless answer.
      const code = errorOf(reply)?.code;
      if (ctx.profile.spoken?.includes(REVISIONS[0]) && (code === -32601 || code === -32000))
        return skip(
          `${what} → ${code}: the server speaks the initialize wire too, and took it for a request of that wire`,
        );
      return expectCode(reply, -32602, what, 'fail');
    },
  },
  {
    id: 'stateless/meta/client-info-optional',
    scratch: true,
    title: 'A request whose _meta has no clientInfo is served',
    requirement: requirement(
      '07.meta.required',
      'SHOULD',
      'basic#per-request-protocol-fields',
      'Only protocolVersion and clientCapabilities are required in _meta; clientInfo is one a client SHOULD send, so a request without it is served (a refusal warns: no sentence makes it a MUST)',
      STATELESS_REVISION,
    ),
    revisions: only07,
    async run(ctx) {
      const session = await ctx.ownSession();
      // Undefined drops the key from the frame the session sends.
      const reply = await session.request('server/discover', { _meta: { [CLIENT_INFO]: undefined } });
      if (!errorOf(reply)) return pass('server/discover without clientInfo in _meta was served');
      return warn(
        `server/discover without clientInfo in _meta was rejected with ${JSON.stringify(errorOf(reply)!.code)}`,
        { expected: 'a DiscoverResult', actual: describeReply(reply) },
      );
    },
  },
  {
    id: 'stateless/removed-methods',
    scratch: true,
    title: 'The methods 2026-07-28 removed get -32601',
    requirement: requirement(
      'base.method-not-found',
      'SHOULD',
      'changelog',
      'ping, logging/setLevel, resources/subscribe and resources/unsubscribe are not methods of 2026-07-28, nor tasks/result and tasks/list (the Tasks extension has neither): -32601 is the answer; serving them, or another error, warns (no sentence makes it a MUST for a server that keeps them for legacy clients)',
      STATELESS_REVISION,
    ),
    covers: ['tasksext.removed-methods'],
    revisions: only07,
    async run(ctx) {
      const session = await ctx.ownSession();
      const uri = 'mcp-conformance://does-not-exist/resource';
      // The 2025-11-25 task methods are asked for by a client that declares the extension: the one they would serve.
      const tasks = capabilitiesMeta({ extensions: { [TASKS_EXTENSION]: {} } });
      const calls: [string, Record<string, unknown>][] = [
        ['ping', {}],
        ['logging/setLevel', { level: 'error' }],
        ['resources/subscribe', { uri }],
        ['resources/unsubscribe', { uri }],
        ['tasks/result', { taskId: 'mcp-conformance-no-such-task', ...tasks }],
        ['tasks/list', tasks],
      ];
      const replies = await Promise.all(
        calls.map(([method, params]) => session.request(method, params).then((r) => ({ method, r }))),
      );
      const other = replies.filter(({ r }) => errorOf(r)?.code !== -32601);
      if (other.length === 0) return pass(`${calls.map(([m]) => m).join(', ')} → -32601`);
      return warn(
        other
          .map(
            ({ method, r }) => `${method} → ${errorOf(r) ? `error ${JSON.stringify(errorOf(r)!.code)}` : 'a result'}`,
          )
          .join('; '),
        {
          expected: { error: { code: -32601 } },
          actual: other.map(({ method, r }) => ({ method, reply: describeReply(r) })),
        },
      );
    },
  },
  {
    id: 'stateless/resources/not-found-uri',
    title: 'The not-found error of an unknown resource names its URI in data.uri',
    requirement: requirement(
      'res.read.not-found.07',
      'SHOULD',
      'server/resources#error-handling',
      'Reading a resource that does not exist gets -32602 whose data.uri names the URI (SEP-2164)',
      STATELESS_REVISION,
    ),
    revisions: only07,
    requires: { capabilities: ['resources'] },
    async run(ctx) {
      const uri = 'mcp-conformance://does-not-exist/resource';
      const reply = await ctx.request('resources/read', { uri });
      const err = errorOf(reply);
      // The code itself is resources/read/unknown-uri's to judge.
      if (err?.code !== -32602)
        return skip(
          `resources/read of ${uri} → ${err ? `error ${JSON.stringify(err.code)}` : 'a result'}, not -32602: resources/read/unknown-uri judges that`,
        );
      if (isObject(err.data) && err.data.uri === uri) return pass(`resources/read of ${uri} → -32602 with data.uri`);
      return warn(`resources/read of ${uri} → -32602 without data.uri naming it`, {
        expected: { error: { code: -32602, data: { uri } } },
        actual: describeReply(reply),
      });
    },
  },
  {
    id: 'stateless/version/unsupported',
    title: 'An unsupported protocol version gets -32022 with the supported versions',
    requirement: requirement(
      '07.version.unsupported',
      'MUST',
      'basic/versioning#protocol-version-negotiation',
      'A request naming a version the server does not support gets UnsupportedProtocolVersionError -32022 with data.supported and data.requested',
      STATELESS_REVISION,
    ),
    revisions: only07,
    async run(ctx) {
      const requested = '1900-01-01';
      const reply = await ctx.request('tools/list', {
        _meta: { [PROTOCOL_VERSION]: requested },
      });
      const valid = validate(STATELESS_REVISION, 'UnsupportedProtocolVersionError', reply.message);
      if (!valid.ok)
        return fail(`protocolVersion ${requested} was not answered with a valid -32022 error`, {
          expected: { error: { code: -32022, data: { requested, supported: ['…'] } } },
          actual: { reply: describeReply(reply), problems: valid.errors },
        });
      return pass(`-32022; supported: ${JSON.stringify((errorOf(reply)!.data as { supported: unknown }).supported)}`);
    },
  },
  {
    id: 'stateless/version/requested-echo',
    title: 'The -32022 error names in data.requested the version the request asked for',
    requirement: requirement(
      '07.version.requested',
      'MUST',
      'basic/versioning#protocol-version-negotiation',
      'The UnsupportedProtocolVersionError a request gets names in data.requested the protocol version that request sent',
      STATELESS_REVISION,
    ),
    revisions: only07,
    async run(ctx) {
      // Two versions: a server that always names one (the spec's example names 1900-01-01) cannot echo both.
      const replies = await Promise.all(
        ['1900-01-01', '1999-12-31'].map(async (requested) => {
          const reply = await ctx.request('tools/list', { _meta: { [PROTOCOL_VERSION]: requested } });
          const err = errorOf(reply);
          const named = err?.code === -32022 && isObject(err.data) ? err.data.requested : undefined;
          return { requested, named, reply };
        }),
      );
      // An error without a data.requested string is stateless/version/unsupported's to judge (the schema requires one).
      const judged = replies.filter((r) => typeof r.named === 'string');
      if (judged.length === 0)
        return skip('no -32022 error with a data.requested came back (stateless/version/unsupported judges the error)');
      const wrong = judged.filter((r) => r.named !== r.requested);
      if (wrong.length === 0)
        return pass(`-32022 named ${judged.map((r) => r.requested).join(' and ')} in data.requested`);
      return fail(
        wrong.map((r) => `protocolVersion ${r.requested} → data.requested ${JSON.stringify(r.named)}`).join('; '),
        {
          expected: wrong.map(({ requested }) => ({ error: { code: -32022, data: { requested } } })),
          actual: wrong.map(({ reply }) => describeReply(reply)),
        },
      );
    },
  },
  {
    id: 'stateless/tools/order',
    fresh: true,
    elsewhere: true,
    title: 'tools/list returns the same tools in the same order on another connection',
    requirement: requirement(
      '07.tools.deterministic',
      'SHOULD',
      'server/tools#listing-tools',
      'Servers should return tools in a deterministic order; the list must not vary per connection',
      STATELESS_REVISION,
    ),
    covers: ['tools.list.order', 'tools.list.no-vary'],
    revisions: only07,
    requires: { capabilities: ['tools'] },
    async run(ctx) {
      const first = ctx.profile.tools.map((t) => t.name);
      if (first.length < 2) return skip('fewer than two tools: there is no order to compare');
      const { items, walk } = (await listsElsewhere(ctx)).find((l) => l.method === 'tools/list')!;
      // A walk that failed says nothing of the order; stateless/lists/per-connection (a MUST) judges the same walk.
      if (walk.problem)
        return warn(`the second tools/list walk failed: ${walk.problem} (see stateless/lists/per-connection)`, {
          actual: walk,
        });
      const second = items.map((t) => t.name);
      if (JSON.stringify(first) === JSON.stringify(second)) return pass(`${first.length} tools, same order twice`);
      const sorted = (names: unknown[]) => JSON.stringify(names.map(String).sort());
      // Other tools on another connection break a MUST NOT; another order only the SHOULD.
      const outcome = sorted(first) === sorted(second) ? warn : fail;
      return outcome(`tools/list gave ${outcome === warn ? 'another order' : 'other tools'} on another connection`, {
        expected: first,
        actual: second,
      });
    },
  },
  {
    id: 'stateless/lists/per-connection',
    fresh: true,
    elsewhere: true,
    title: 'Every list is the same on new connections as on the first',
    requirement: requirement(
      '07.stateless',
      'MUST',
      'basic#statelessness',
      'Servers do not rely on earlier requests on the connection: the lists do not vary per connection',
      STATELESS_REVISION,
    ),
    revisions: only07,
    async run(ctx) {
      const lists = LISTS.filter((l) => ctx.profile.capabilities[l.capability] !== undefined);
      if (lists.length === 0) return skip('the server declares no list capability (tools, resources, prompts)');
      const keys = (items: Record<string, unknown>[], key: string) => items.map((i) => String(i[key])).sort();
      const differences: unknown[] = [];
      // A new connection asking first thing, against the shared one that discovered and walked already.
      for (const { method, field, key, items, walk } of await listsElsewhere(ctx)) {
        if (walk.problem) return fail(`${method} on a new connection failed: ${walk.problem}`, { actual: walk });
        const first = keys(ctx.profile[field], key);
        const other = keys(items, key);
        if (JSON.stringify(first) !== JSON.stringify(other)) differences.push({ method, first, other });
      }
      if (differences.length > 0)
        return fail(`${(differences[0] as { method: string }).method} lists other items on another connection`, {
          expected: 'the same items on every connection',
          actual: differences,
        });
      return pass(`${lists.map((l) => l.method).join(', ')}: the same items on a new connection as on the first`);
    },
  },
  {
    id: 'stateless/initialize/modern-only',
    // Opens its session when it needs one (not ahead): the auto probe may have shown both eras spoken already.
    title: 'A legacy initialize to a modern-only server gets an error naming its versions',
    requirement: requirement(
      '07.modern-only-init',
      'SHOULD',
      'basic/versioning',
      'A server that speaks only the stateless wire names its supported versions in any error it returns to a legacy initialize',
      STATELESS_REVISION,
    ),
    revisions: only07,
    async run(ctx) {
      if (ctx.profile.spoken?.includes(REVISIONS[0]))
        return skip('the server also answers initialize (it speaks both eras: the auto probe found both)');
      const session = await ctx.fresh();
      // A legacy client: no protocol fields, and no revision until initialize names one.
      session.requestMeta = undefined;
      session.revision = undefined;
      const reply = await ctx.initialize(session, REVISIONS[0]);
      if (resultOf(reply)) return skip('the server also answers initialize (it speaks both eras)');
      const versions = ctx.profile.initializeResult.supportedVersions;
      const supported = Array.isArray(versions) ? versions.map(String) : [STATELESS_REVISION];
      const text = JSON.stringify(errorOf(reply) ?? reply.message);
      const missing = supported.filter((v) => !text.includes(v));
      if (missing.length === 0) return pass(`initialize → error naming ${supported.join(', ')}`);
      return warn(`the error to a legacy initialize does not name ${missing.join(', ')}`, {
        expected: { error: { code: -32022, data: { supported } } },
        actual: describeReply(reply),
      });
    },
  },
  {
    id: 'stateless/capabilities/missing',
    title: 'A request that needs an undeclared client capability gets -32021 naming it',
    requirement: requirement(
      '07.missing-cap',
      'MUST',
      'basic#per-request-protocol-fields',
      'A request that needs a client capability the request did not declare gets MissingRequiredClientCapabilityError -32021 with data.requiredCapabilities',
      STATELESS_REVISION,
    ),
    revisions: only07,
    async run(ctx) {
      const probe = await inputProbe(ctx);
      if (typeof probe === 'string') return skip(probe);
      const { tool, bare } = probe;
      if (errorOf(bare)) {
        const valid = validate(STATELESS_REVISION, 'MissingRequiredClientCapabilityError', bare.message);
        if (!valid.ok)
          return fail(`${tool}: the -32021 error is not a valid MissingRequiredClientCapabilityError`, {
            expected: { error: { code: -32021, data: { requiredCapabilities: {} } } },
            actual: { reply: describeReply(bare), problems: valid.errors },
          });
        return pass(`${tool} → -32021 requiring ${JSON.stringify(probe.caps)}`);
      }
      const needed = inputRequestsOf(resultOf(bare)!)
        .map(([, method]) => INPUT_CAPABILITY[String(method)])
        .filter((c) => c !== undefined);
      if (needed.length === 0) return skip(`${tool} asks for input that needs no client capability`);
      return fail(
        `${tool} asked a client that declared no capabilities for ${[...new Set(needed)].join(', ')} input instead of answering -32021`,
        { expected: { error: { code: -32021 } }, actual: describeReply(bare) },
      );
    },
  },
  {
    id: 'stateless/mrtr/retry',
    title: 'Retrying with the input responses and requestState completes the request',
    requirement: MRTR_RETRY,
    revisions: only07,
    async run(ctx) {
      const probe = await inputProbe(ctx);
      if (typeof probe === 'string') return skip(probe);
      const { tool, caps } = probe;
      const first = resultOf(probe.asked);
      if (errorOf(probe.bare) && Object.keys(caps).length === 0)
        return skip(`${tool}'s -32021 names no required capabilities to declare (see stateless/capabilities/missing)`);
      if (!first)
        return fail(`${tool} declared ${JSON.stringify(caps)} and still got an error`, {
          expected: 'an InputRequiredResult',
          actual: describeReply(probe.asked),
        });
      if (first.resultType !== 'input_required')
        return skip(`${tool} completed at once when the capabilities it named were declared`);
      return retried(tool, first, toolCall(ctx, probe));
    },
  },
  {
    id: 'stateless/mrtr/retry-prompt',
    title: 'A prompt that asks for input completes when retried with the input responses and requestState',
    requirement: MRTR_RETRY,
    revisions: only07,
    requires: { capabilities: ['prompts'] },
    async run(ctx) {
      const probes = await promptProbes(ctx);
      if (typeof probes === 'string') return skip(probes);
      const outcomes: Outcome[] = [];
      for (const { prompt, arguments: args, asked } of probes) {
        const call = (extra: Record<string, unknown>) =>
          ctx.request('prompts/get', { name: prompt, arguments: args, ...extra, ...capabilitiesMeta(ANSWERABLE) });
        outcomes.push(await retried(`prompt ${prompt}`, asked, call));
      }
      // A skip only when no prompt could be judged.
      return outcomes.every((o) => o.status === 'skip')
        ? skip(outcomes.map((o) => o.message).join('; '))
        : worst(outcomes);
    },
  },
  ...MRTR_RETRY_CHECKS,
  {
    id: 'stateless/subscriptions/listen',
    fresh: true,
    elsewhere: true,
    title:
      'subscriptions/listen is acknowledged first, and its stream carries only what was asked for, tagged with its id',
    requirement: requirement(
      '07.subscriptions',
      'MUST',
      'basic/patterns/subscriptions',
      'The first message of a subscriptions/listen stream is notifications/subscriptions/acknowledged; every notification on it carries _meta io.modelcontextprotocol/subscriptionId equal to the listen request id, and only the types the client opted into',
      STATELESS_REVISION,
    ),
    revisions: only07,
    async run(ctx) {
      // The run's second connection: a notification on it that another check's request caused carries no subscription id
      // and is none of the list-changed types, so it is not judged here.
      const { session } = await ctx.elsewhere();
      const id: RequestId = 'mcp-conformance-listen';
      const requested = { toolsListChanged: true };
      const seen: InboundEvent[] = [];
      let acknowledged: () => void = () => undefined;
      const ack = new Promise<void>((resolve) => (acknowledged = resolve));
      session.onInbound((e) => {
        if (e.kind !== 'notification' && e.kind !== 'response') return;
        seen.push(e);
        if (e.message?.method === 'notifications/subscriptions/acknowledged') acknowledged();
      });
      // The stream stays open: its response comes only when the server ends it.
      const listen = session.request(
        'subscriptions/listen',
        { notifications: requested },
        { id, timeoutMs: ctx.timeoutMs },
      );
      let settled = false;
      const ended = listen
        .then(
          (r) => r,
          (err: Error) => err,
        )
        .finally(() => (settled = true));
      const first = await Promise.race([ack.then(() => 'ack' as const), ended]);
      // Over HTTP, what the listen POST got so far: its head, and how much of its body.
      const head =
        session.transport instanceof HttpTransport
          ? session.transport.posts.find((p) => sentId(p.sent.text) === id)?.head
          : undefined;
      if (first instanceof RequestTimeout) {
        const came = head
          ? `: subscriptions/listen got HTTP ${head.status} ${head.contentType || 'without a content type'}, ${head.bytes} body byte(s) and no message in them, the body still open`
          : ' and no answer to subscriptions/listen';
        return fail(`no notifications/subscriptions/acknowledged within ${ctx.timeoutMs} ms${came}`, {
          expected: 'notifications/subscriptions/acknowledged',
        });
      }
      if (first !== 'ack' && !(first instanceof Error) && errorOf(first))
        return skip(`subscriptions/listen was refused: ${JSON.stringify(errorOf(first))}`);
      if (first === 'ack' && head && head.contentType !== 'text/event-stream') {
        return fail(
          `notifications/subscriptions/acknowledged came in an HTTP ${head.status} ${head.contentType || 'untyped'} body${settled ? '' : ' that did not end'}: a stream of messages is text/event-stream ("the server MUST either return Content-Type: text/event-stream, to initiate an SSE stream, or Content-Type: application/json, to return one JSON object", the response)`,
          {
            expected: 'Content-Type: text/event-stream',
            actual: { status: head.status, contentType: head.contentType, bodyBytesSoFar: head.bytes },
          },
        );
      }
      await fixedWait('subscriptions/listen: messages after the acknowledgement', LISTEN_WATCH_MS);
      const mine = seen.filter(
        (e) =>
          subscriptionOf(e) !== undefined ||
          (e.kind === 'notification' && String(e.message?.method) in SUBSCRIPTION_TYPES),
      );
      const problems = judgeStream(mine, id, requested);
      if (problems.length > 0)
        return fail(problems[0], {
          expected: {
            firstMessage: 'notifications/subscriptions/acknowledged',
            subscriptionId: id,
            types: Object.keys(requested),
          },
          actual: mine.map((e) => e.message),
        });
      return pass(
        `acknowledged; ${mine.length - 1} more message(s) on the stream in ${LISTEN_WATCH_MS} ms, all tagged and asked for`,
      );
    },
  },
];

/** The id of the request a POST body held, when it is one request. */
function sentId(text: string): unknown {
  try {
    const m: unknown = JSON.parse(text);
    return isObject(m) ? m.id : undefined;
  } catch {
    return undefined;
  }
}

/** The subscription id a message carries in its _meta (params for notifications, result for responses). */
function subscriptionOf(e: InboundEvent): unknown {
  const m = e.message;
  const holder = isObject(m?.params) ? m.params : isObject(m?.result) ? m.result : undefined;
  return isObject(holder?._meta) ? holder._meta[SUBSCRIPTION_ID] : undefined;
}

/** What is wrong with the messages of one listen stream (in arrival order), by the rules of SubscriptionsAcknowledgedNotification. */
function judgeStream(stream: InboundEvent[], id: RequestId, requested: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const tagged = stream.filter((e) => subscriptionOf(e) === id);
  if (tagged[0]?.message?.method !== 'notifications/subscriptions/acknowledged') {
    problems.push(
      `the first message carrying subscriptionId ${JSON.stringify(id)} is ${tagged[0] ? String(tagged[0].message?.method ?? 'a response') : 'none'}, not notifications/subscriptions/acknowledged`,
    );
  }
  for (const e of stream) {
    const method = String(e.message?.method);
    if (e.kind === 'notification' && subscriptionOf(e) !== id)
      problems.push(
        `${method} carries subscriptionId ${JSON.stringify(subscriptionOf(e))}, not the listen request id ${JSON.stringify(id)}`,
      );
    const agreed =
      method === 'notifications/subscriptions/acknowledged' &&
      isObject(e.message?.params) &&
      isObject(e.message.params.notifications)
        ? Object.keys(e.message.params.notifications)
        : [];
    const types = [...agreed, ...(method in SUBSCRIPTION_TYPES ? [SUBSCRIPTION_TYPES[method]] : [])];
    for (const type of types.filter((t) => !(t in requested)))
      problems.push(
        `${method} ${agreed.includes(type) ? 'agrees to' : 'delivers'} ${type}, which the client did not opt into`,
      );
  }
  return problems;
}
