// Checks and frame rules of the stateless wire (2026-07-28, requirements §1.21): they apply to no other revision.
import fc from 'fast-check';
import { LISTS, walkList } from '../discovery/discover.js';
import { callableTools } from '../generate/tool-policy.js';
import { promptArgumentsSchema, schemaArbitraries } from '../generate/schema-arbitrary.js';
import { REVISIONS, STATELESS_REVISION, resultDefinition, validate, shapeBroken } from '../schema/validators.js';
import type { Level } from '../schema/generated/report.js';
import { RequestTimeout, type InboundEvent, type Reply, type RequestId } from '../session/session.js';
import { type CheckContext, type CheckDef, type Outcome, describeReply, errorOf, fail, pass, requirement, resultOf, skip, warn, worst } from './check.js';
import type { Finding, FrameRule } from './frame-rule.js';
import { isObject } from '../json.js';
import { HttpTransport } from '../transport/http-base.js';
import { LOG_LEVEL } from './conversation-rules.js';

const only07 = [STATELESS_REVISION];
const req07 = (id: string, level: Level, page: string, text: string) => requirement(id, level, page, text, STATELESS_REVISION);
const failing = (message: string, extra: Partial<Finding> = {}): Finding[] => [{ severity: 'fail', message, ...extra }];

/** Results that must carry ttlMs and cacheScope (server/utilities/caching). */
const CACHEABLE = new Set(['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read']);
/** The codes 2026-07-28 defines in its reserved range -32020..-32099: HeaderMismatch, MissingRequiredClientCapability, UnsupportedProtocolVersion. */
const DEFINED_RESERVED = new Set([-32020, -32021, -32022]);
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
/** The only methods whose result may be an InputRequiredResult (basic/patterns/mrtr). */
const MRTR_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);
/** The client capability each kind of input request needs. */
const INPUT_CAPABILITY: Record<string, string> = { 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' };
/** What the suite answers to each kind of input request: a decline, an empty sample, no roots (all valid InputResponses). */
export const INPUT_ANSWER: Record<string, unknown> = {
  'elicitation/create': { action: 'decline' },
  'sampling/createMessage': { role: 'assistant', content: { type: 'text', text: 'mcp-conformance does not sample' }, model: 'mcp-conformance' },
  'roots/list': { roots: [] },
};
/** Retries a check gives a request that keeps asking for input. */
const MAX_ROUNDS = 5;
/** How long a subscription check watches the stream after its acknowledgement. */
const LISTEN_WATCH_MS = 300;
/** The subscription filter key of each notification type a listen stream may carry. */
const SUBSCRIPTION_TYPES: Record<string, string> = {
  'notifications/tools/list_changed': 'toolsListChanged',
  'notifications/prompts/list_changed': 'promptsListChanged',
  'notifications/resources/list_changed': 'resourcesListChanged',
  'notifications/resources/updated': 'resourceSubscriptions',
};

export const capabilitiesMeta = (caps: Record<string, unknown>) => ({ _meta: { [CLIENT_CAPABILITIES]: caps } });
/** The input requests of an InputRequiredResult, as [key, method] pairs. */
const inputRequestsOf = (result: Record<string, unknown>): [string, unknown][] =>
  Object.entries(isObject(result.inputRequests) ? result.inputRequests : {}).map(([k, r]) => [k, isObject(r) ? r.method : undefined]);

/** A tool that needs client input: how it answered a call declaring no capabilities, and a call declaring those it named. */
interface InputProbe {
  tool: string;
  arguments: unknown;
  /** The answer to the call with no client capabilities. */
  bare: Reply;
  /** The capabilities the retry declared (data.requiredCapabilities of a -32021), and its answer. */
  caps: Record<string, unknown>;
  asked: Reply;
}

/** Tool calls inputProbe keeps in flight. */
const PROBE_AHEAD = 8;

/**
 * Calls each tool the policy allows once, with valid arguments and no client capabilities, until one needs a client
 * capability (-32021) or asks for input; then calls it again declaring what it required. Shared by the checks it serves.
 */
export function inputProbe(ctx: CheckContext): Promise<InputProbe | string> {
  return ctx.memo('stateless:input-probe', async () => {
    if (ctx.profile.capabilities.tools === undefined) return 'the server does not declare the tools capability';
    const { callable } = callableTools(ctx.profile.tools, ctx.toolCalls);
    const calls = callable.flatMap((tool) => {
      const valid = schemaArbitraries(tool.inputSchema).valid;
      return valid.ok ? [{ name: String(tool.name), args: fc.sample(valid.arbitrary, { numRuns: 1, seed: ctx.seed })[0] }] : [];
    });
    // A few calls go out ahead of the one judged, so that tools slow to fail do not wait on each other; they are still
    // judged in list order, as when sent one after the other.
    const sent: Promise<Reply>[] = [];
    for (const [i, { name, args }] of calls.entries()) {
      while (sent.length < Math.min(calls.length, i + PROBE_AHEAD)) {
        const call = calls[sent.length];
        const reply = ctx.request('tools/call', { name: call.name, arguments: call.args, ...capabilitiesMeta({}) });
        reply.catch(() => {}); // one not judged (an earlier tool answered the probe) may fail unheard
        sent.push(reply);
      }
      const bare = await sent[i];
      const data = errorOf(bare)?.data;
      if (errorOf(bare)?.code === -32021) {
        const caps = isObject(data) && isObject(data.requiredCapabilities) ? data.requiredCapabilities : {};
        return { tool: name, arguments: args, bare, caps, asked: await ctx.request('tools/call', { name, arguments: args, ...capabilitiesMeta(caps) }) };
      }
      if (resultOf(bare)?.resultType === 'input_required') return { tool: name, arguments: args, bare, caps: {}, asked: bare };
    }
    return `no tool the run may call (${callable.map((t) => t.name).join(', ') || 'none'}) needs a client capability or asks for input`;
  });
}

/** The answers to every input request of `result`, or the method the suite cannot answer. */
function answers(result: Record<string, unknown>): { responses: Record<string, unknown> } | { unknown: unknown } {
  const responses: Record<string, unknown> = {};
  for (const [key, method] of inputRequestsOf(result)) {
    if (typeof method !== 'string' || !(method in INPUT_ANSWER)) return { unknown: method };
    responses[key] = INPUT_ANSWER[method];
  }
  return { responses };
}

/** A requestState with its first character changed: what integrity protection must catch. */
const tampered = (state: string) => (state.startsWith('A') ? 'B' : 'A') + state.slice(1);

const MRTR_RETRY = req07('07.mrtr', 'MUST', 'basic/patterns/mrtr', 'A client retries a request that returned an InputRequiredResult with inputResponses and the requestState; the server completes it, and rejects a requestState that was tampered with');

/**
 * Answers the input requests of `first` (what `what` returned) round after round through `call`, which repeats the
 * request with the extra params given, until the request completes; then retries the first round with a tampered
 * requestState, which must not complete.
 */
async function retried(what: string, first: Record<string, unknown>, call: (extra: Record<string, unknown>) => Promise<Reply>): Promise<Outcome> {
  let result = first;
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const answered = answers(result);
    if ('unknown' in answered) return skip(`${what} asks for input of a kind the suite cannot give: ${JSON.stringify(answered.unknown)}`);
    const reply = await call({ inputResponses: answered.responses, requestState: result.requestState });
    const next = resultOf(reply);
    if (!next) return fail(`${what}: the retry with input responses was refused`, { expected: 'a complete result', actual: describeReply(reply) });
    if (next.resultType !== 'input_required') return tamper(round);
    result = next;
  }
  return fail(`${what} still asked for input after ${MAX_ROUNDS} retries`, { expected: 'a complete result', actual: result });

  async function tamper(rounds: number): Promise<Outcome> {
    const done = `completed after ${rounds} retr${rounds === 1 ? 'y' : 'ies'}`;
    const state = first.requestState;
    if (typeof state !== 'string') return pass(`${what} ${done} (no requestState to tamper with)`);
    const answered = answers(first) as { responses: Record<string, unknown> };
    const reply = await call({ inputResponses: answered.responses, requestState: tampered(state) });
    // Integrity matters only when the state does: a SHOULD for a black box that cannot tell.
    if (resultOf(reply)?.resultType === 'complete') return warn(`${what} ${done}, and also completed with a tampered requestState`, { expected: 'an error for the altered requestState', actual: describeReply(reply) });
    return pass(`${what} ${done}; a tampered requestState was refused`);
  }
}

/** The client capabilities whose input requests the suite can answer (INPUT_ANSWER): a prompt probe declares them all. */
const ANSWERABLE = Object.fromEntries(Object.values(INPUT_CAPABILITY).map((c) => [c, {}]));
/** Prompts a probe gets at most. */
const MAX_PROMPTS = 20;

/** A listed prompt that asked for input: the arguments it was got with and its InputRequiredResult. */
interface PromptProbe {
  prompt: string;
  arguments: unknown;
  asked: Record<string, unknown>;
}

/**
 * Gets each listed prompt once, with valid arguments, declaring every capability the suite can answer for: the prompts
 * that answer with an InputRequiredResult, or why there are none. Getting a listed prompt is safe.
 */
function promptProbes(ctx: CheckContext): Promise<PromptProbe[] | string> {
  return ctx.memo('stateless:prompt-probes', async () => {
    const probes: PromptProbe[] = [];
    const got: string[] = [];
    for (const prompt of ctx.profile.prompts.slice(0, MAX_PROMPTS)) {
      const valid = schemaArbitraries(promptArgumentsSchema(prompt)).valid;
      if (!valid.ok) continue;
      const [args] = fc.sample(valid.arbitrary, { numRuns: 1, seed: ctx.seed });
      const name = String(prompt.name);
      const result = resultOf(await ctx.request('prompts/get', { name, arguments: args, ...capabilitiesMeta(ANSWERABLE) }));
      got.push(name);
      if (result?.resultType === 'input_required') probes.push({ prompt: name, arguments: args, asked: result });
    }
    if (probes.length > 0) return probes;
    return `no listed prompt (${got.join(', ') || 'none got'}) asks for input when the client declares ${Object.keys(ANSWERABLE).join(', ')}`;
  });
}

/**
 * Every list the server declares, walked on one new connection as its first requests: the checks that compare lists
 * across connections share it (over stdio a connection is a server process).
 */
function listsElsewhere(ctx: CheckContext) {
  return ctx.memo('stateless:lists-elsewhere', async () => {
    const session = await ctx.fresh();
    const lists = LISTS.filter((l) => ctx.profile.capabilities[l.capability] !== undefined);
    return Promise.all(lists.map(async (l) => ({ ...l, ...(await walkList(session, l.method, l.field, l.key)) })));
  });
}

export const STATELESS_CHECKS: CheckDef[] = [
  {
    id: 'stateless/discover/result',
    title: 'server/discover answers with a valid DiscoverResult naming 2026-07-28',
    requirement: req07('07.discover', 'MUST', 'server/discover', 'server/discover returns resultType, supportedVersions, capabilities, ttlMs and cacheScope; serverInfo SHOULD be in _meta'),
    covers: ['07.serverInfo'],
    revisions: only07,
    async run(ctx) {
      const result = ctx.profile.initializeResult;
      const valid = validate(STATELESS_REVISION, 'DiscoverResult', result);
      if (shapeBroken(valid)) return fail('the server/discover result is not a valid DiscoverResult', { expected: 'a valid DiscoverResult', actual: valid.errors });
      const versions = result.supportedVersions as string[];
      if (!versions.includes(STATELESS_REVISION)) return fail(`supportedVersions ${JSON.stringify(versions)} lacks ${STATELESS_REVISION}`, { actual: versions });
      if (!isObject(result._meta) || !isObject(result._meta[SERVER_INFO])) return warn(`no ${SERVER_INFO} in the result's _meta`, { expected: { _meta: { [SERVER_INFO]: '{ name, version }' } }, actual: result._meta });
      return pass(`supports ${versions.join(', ')}`);
    },
  },
  {
    id: 'stateless/meta/required',
    scratch: true,
    title: 'A request whose _meta lacks clientCapabilities is rejected with -32602',
    requirement: req07('07.meta.required', 'MUST', 'basic#per-request-protocol-fields', 'A request missing io.modelcontextprotocol/protocolVersion or …/clientCapabilities in _meta is rejected with -32602'),
    revisions: only07,
    async run(ctx) {
      // The version stays: a dual-era server may rightly take a request with no protocol fields for a legacy one.
      // Undefined drops the key from the frame the session sends.
      const session = await ctx.ownSession();
      const reply = await session.request('tools/list', { _meta: { [CLIENT_CAPABILITIES]: undefined } });
      const code = errorOf(reply)?.code;
      if (code === -32602) return pass('tools/list without clientCapabilities → -32602');
      const outcome = code === undefined ? fail : warn;
      return outcome(`tools/list without clientCapabilities was ${code === undefined ? 'served' : `rejected with ${JSON.stringify(code)}`}`, { expected: { error: { code: -32602 } }, actual: describeReply(reply) });
    },
  },
  {
    id: 'stateless/meta/client-info-optional',
    scratch: true,
    title: 'A request whose _meta has no clientInfo is served',
    requirement: req07('07.meta.required', 'SHOULD', 'basic#per-request-protocol-fields', 'Only protocolVersion and clientCapabilities are required in _meta; clientInfo is one a client SHOULD send, so a request without it is served (a refusal warns: no sentence makes it a MUST)'),
    revisions: only07,
    async run(ctx) {
      const session = await ctx.ownSession();
      // Undefined drops the key from the frame the session sends.
      const reply = await session.request('server/discover', { _meta: { [CLIENT_INFO]: undefined } });
      if (!errorOf(reply)) return pass('server/discover without clientInfo in _meta was served');
      return warn(`server/discover without clientInfo in _meta was rejected with ${JSON.stringify(errorOf(reply)!.code)}`, { expected: 'a DiscoverResult', actual: describeReply(reply) });
    },
  },
  {
    id: 'stateless/removed-methods',
    scratch: true,
    title: 'The methods 2026-07-28 removed get -32601',
    requirement: req07('base.method-not-found', 'SHOULD', 'changelog', 'ping, logging/setLevel, resources/subscribe and resources/unsubscribe are not methods of 2026-07-28: -32601 is the answer; serving them, or another error, warns (no sentence makes it a MUST for a server that keeps them for legacy clients)'),
    revisions: only07,
    async run(ctx) {
      const session = await ctx.ownSession();
      const uri = 'mcp-conformance://does-not-exist/resource';
      const calls: [string, Record<string, unknown>][] = [['ping', {}], ['logging/setLevel', { level: 'error' }], ['resources/subscribe', { uri }], ['resources/unsubscribe', { uri }]];
      const replies = await Promise.all(calls.map(([method, params]) => session.request(method, params).then((r) => ({ method, r }))));
      const other = replies.filter(({ r }) => errorOf(r)?.code !== -32601);
      if (other.length === 0) return pass(`${calls.map(([m]) => m).join(', ')} → -32601`);
      return warn(other.map(({ method, r }) => `${method} → ${errorOf(r) ? `error ${JSON.stringify(errorOf(r)!.code)}` : 'a result'}`).join('; '), { expected: { error: { code: -32601 } }, actual: other.map(({ method, r }) => ({ method, reply: describeReply(r) })) });
    },
  },
  {
    id: 'stateless/resources/not-found-uri',
    title: 'The not-found error of an unknown resource names its URI in data.uri',
    requirement: req07('res.read.not-found.07', 'SHOULD', 'server/resources#error-handling', 'Reading a resource that does not exist gets -32602 whose data.uri names the URI (SEP-2164)'),
    revisions: only07,
    requires: { capabilities: ['resources'] },
    async run(ctx) {
      const uri = 'mcp-conformance://does-not-exist/resource';
      const reply = await ctx.request('resources/read', { uri });
      const err = errorOf(reply);
      // The code itself is resources/read/unknown-uri's to judge.
      if (err?.code !== -32602) return skip(`resources/read of ${uri} → ${err ? `error ${JSON.stringify(err.code)}` : 'a result'}, not -32602: resources/read/unknown-uri judges that`);
      if (isObject(err.data) && err.data.uri === uri) return pass(`resources/read of ${uri} → -32602 with data.uri`);
      return warn(`resources/read of ${uri} → -32602 without data.uri naming it`, { expected: { error: { code: -32602, data: { uri } } }, actual: describeReply(reply) });
    },
  },
  {
    id: 'stateless/version/unsupported',
    title: 'An unsupported protocol version gets -32022 with the supported versions',
    requirement: req07('07.version.unsupported', 'MUST', 'basic/versioning#protocol-version-negotiation', 'A request naming a version the server does not support gets UnsupportedProtocolVersionError -32022 with data.supported and data.requested'),
    revisions: only07,
    async run(ctx) {
      const requested = '1900-01-01';
      const reply = await ctx.request('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': requested } });
      const valid = validate(STATELESS_REVISION, 'UnsupportedProtocolVersionError', reply.message);
      if (!valid.ok) return fail(`protocolVersion ${requested} was not answered with a valid -32022 error`, { expected: { error: { code: -32022, data: { requested, supported: ['…'] } } }, actual: { reply: describeReply(reply), problems: valid.errors } });
      return pass(`-32022; supported: ${JSON.stringify((errorOf(reply)!.data as { supported: unknown }).supported)}`);
    },
  },
  {
    id: 'stateless/tools/order',
    fresh: true,
    title: 'tools/list returns the same tools in the same order on another connection',
    requirement: req07('07.tools.deterministic', 'SHOULD', 'server/tools#listing-tools', 'Servers should return tools in a deterministic order; the list must not vary per connection'),
    covers: ['tools.list.order', 'tools.list.no-vary'],
    revisions: only07,
    requires: { capabilities: ['tools'] },
    async run(ctx) {
      const first = ctx.profile.tools.map((t) => t.name);
      if (first.length < 2) return skip('fewer than two tools: there is no order to compare');
      const { items, walk } = (await listsElsewhere(ctx)).find((l) => l.method === 'tools/list')!;
      // A walk that failed says nothing of the order; stateless/lists/per-connection (a MUST) judges the same walk.
      if (walk.problem) return warn(`the second tools/list walk failed: ${walk.problem} (see stateless/lists/per-connection)`, { actual: walk });
      const second = items.map((t) => t.name);
      if (JSON.stringify(first) === JSON.stringify(second)) return pass(`${first.length} tools, same order twice`);
      const sorted = (names: unknown[]) => JSON.stringify(names.map(String).sort());
      // Other tools on another connection break a MUST NOT; another order only the SHOULD.
      const outcome = sorted(first) === sorted(second) ? warn : fail;
      return outcome(`tools/list gave ${outcome === warn ? 'another order' : 'other tools'} on another connection`, { expected: first, actual: second });
    },
  },
  {
    id: 'stateless/lists/per-connection',
    fresh: true,
    title: 'Every list is the same on new connections as on the first',
    requirement: req07('07.stateless', 'MUST', 'basic#statelessness', 'Servers do not rely on earlier requests on the connection: the lists do not vary per connection'),
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
      if (differences.length > 0) return fail(`${(differences[0] as { method: string }).method} lists other items on another connection`, { expected: 'the same items on every connection', actual: differences });
      return pass(`${lists.map((l) => l.method).join(', ')}: the same items on a new connection as on the first`);
    },
  },
  {
    id: 'stateless/initialize/modern-only',
    fresh: true,
    title: 'A legacy initialize to a modern-only server gets an error naming its versions',
    requirement: req07('07.modern-only-init', 'SHOULD', 'basic/versioning', 'A server that speaks only the stateless wire names its supported versions in any error it returns to a legacy initialize'),
    revisions: only07,
    async run(ctx) {
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
      return warn(`the error to a legacy initialize does not name ${missing.join(', ')}`, { expected: { error: { code: -32022, data: { supported } } }, actual: describeReply(reply) });
    },
  },
  {
    id: 'stateless/capabilities/missing',
    title: 'A request that needs an undeclared client capability gets -32021 naming it',
    requirement: req07('07.missing-cap', 'MUST', 'basic#per-request-protocol-fields', 'A request that needs a client capability the request did not declare gets MissingRequiredClientCapabilityError -32021 with data.requiredCapabilities'),
    revisions: only07,
    async run(ctx) {
      const probe = await inputProbe(ctx);
      if (typeof probe === 'string') return skip(probe);
      const { tool, bare } = probe;
      if (errorOf(bare)) {
        const valid = validate(STATELESS_REVISION, 'MissingRequiredClientCapabilityError', bare.message);
        if (!valid.ok) return fail(`${tool}: the -32021 error is not a valid MissingRequiredClientCapabilityError`, { expected: { error: { code: -32021, data: { requiredCapabilities: {} } } }, actual: { reply: describeReply(bare), problems: valid.errors } });
        return pass(`${tool} → -32021 requiring ${JSON.stringify(probe.caps)}`);
      }
      const needed = inputRequestsOf(resultOf(bare)!).map(([, method]) => INPUT_CAPABILITY[String(method)]).filter((c) => c !== undefined);
      if (needed.length === 0) return skip(`${tool} asks for input that needs no client capability`);
      return fail(`${tool} asked a client that declared no capabilities for ${[...new Set(needed)].join(', ')} input instead of answering -32021`, { expected: { error: { code: -32021 } }, actual: describeReply(bare) });
    },
  },
  {
    id: 'stateless/mrtr/retry',
    title: 'Retrying with the input responses and requestState completes the request; a tampered requestState is refused',
    requirement: MRTR_RETRY,
    revisions: only07,
    async run(ctx) {
      const probe = await inputProbe(ctx);
      if (typeof probe === 'string') return skip(probe);
      const { tool, caps } = probe;
      const first = resultOf(probe.asked);
      if (errorOf(probe.bare) && Object.keys(caps).length === 0) return skip(`${tool}'s -32021 names no required capabilities to declare (see stateless/capabilities/missing)`);
      if (!first) return fail(`${tool} declared ${JSON.stringify(caps)} and still got an error`, { expected: 'an InputRequiredResult', actual: describeReply(probe.asked) });
      if (first.resultType !== 'input_required') return skip(`${tool} completed at once when the capabilities it named were declared`);
      return retried(tool, first, (extra) => ctx.request('tools/call', { name: tool, arguments: probe.arguments, ...extra, ...capabilitiesMeta(caps) }));
    },
  },
  {
    id: 'stateless/mrtr/retry-prompt',
    title: 'A prompt that asks for input completes when retried with the input responses and requestState; a tampered requestState is refused',
    requirement: MRTR_RETRY,
    revisions: only07,
    requires: { capabilities: ['prompts'] },
    async run(ctx) {
      const probes = await promptProbes(ctx);
      if (typeof probes === 'string') return skip(probes);
      const outcomes: Outcome[] = [];
      for (const { prompt, arguments: args, asked } of probes) {
        const call = (extra: Record<string, unknown>) => ctx.request('prompts/get', { name: prompt, arguments: args, ...extra, ...capabilitiesMeta(ANSWERABLE) });
        outcomes.push(await retried(`prompt ${prompt}`, asked, call));
      }
      // A skip only when no prompt could be judged.
      return outcomes.every((o) => o.status === 'skip') ? skip(outcomes.map((o) => o.message).join('; ')) : worst(outcomes);
    },
  },
  {
    id: 'stateless/subscriptions/listen',
    fresh: true,
    title: 'subscriptions/listen is acknowledged first, and its stream carries only what was asked for, tagged with its id',
    requirement: req07('07.subscriptions', 'MUST', 'basic/patterns/subscriptions', 'The first message of a subscriptions/listen stream is notifications/subscriptions/acknowledged; every notification on it carries _meta io.modelcontextprotocol/subscriptionId equal to the listen request id, and only the types the client opted into'),
    revisions: only07,
    async run(ctx) {
      const session = await ctx.fresh();
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
      const listen = session.request('subscriptions/listen', { notifications: requested }, { id, timeoutMs: ctx.timeoutMs });
      let settled = false;
      const ended = listen.then((r) => r, (err: Error) => err).finally(() => (settled = true));
      const first = await Promise.race([ack.then(() => 'ack' as const), ended]);
      // Over HTTP, what the listen POST got so far: its head, and how much of its body.
      const head = session.transport instanceof HttpTransport ? session.transport.posts.find((p) => sentId(p.sent.text) === id)?.head : undefined;
      if (first instanceof RequestTimeout) {
        const came = head ? `: subscriptions/listen got HTTP ${head.status} ${head.contentType || 'without a content type'}, ${head.bytes} body byte(s) and no message in them, the body still open` : ' and no answer to subscriptions/listen';
        return fail(`no notifications/subscriptions/acknowledged within ${ctx.timeoutMs} ms${came}`, { expected: 'notifications/subscriptions/acknowledged' });
      }
      if (first !== 'ack' && !(first instanceof Error) && errorOf(first)) return skip(`subscriptions/listen was refused: ${JSON.stringify(errorOf(first))}`);
      if (first === 'ack' && head && head.contentType !== 'text/event-stream') {
        return fail(`notifications/subscriptions/acknowledged came in an HTTP ${head.status} ${head.contentType || 'untyped'} body${settled ? '' : ' that did not end'}: a stream of messages is text/event-stream ("the server MUST either return Content-Type: text/event-stream, to initiate an SSE stream, or Content-Type: application/json, to return one JSON object", the response)`, {
          expected: 'Content-Type: text/event-stream',
          actual: { status: head.status, contentType: head.contentType, bodyBytesSoFar: head.bytes },
        });
      }
      await new Promise((r) => setTimeout(r, LISTEN_WATCH_MS));
      const mine = seen.filter((e) => subscriptionOf(e) !== undefined || (e.kind === 'notification' && String(e.message?.method) in SUBSCRIPTION_TYPES));
      const problems = judgeStream(mine, id, requested);
      if (problems.length > 0) return fail(problems[0], { expected: { firstMessage: 'notifications/subscriptions/acknowledged', subscriptionId: id, types: Object.keys(requested) }, actual: mine.map((e) => e.message) });
      return pass(`acknowledged; ${mine.length - 1} more message(s) on the stream in ${LISTEN_WATCH_MS} ms, all tagged and asked for`);
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
    problems.push(`the first message carrying subscriptionId ${JSON.stringify(id)} is ${tagged[0] ? String(tagged[0].message?.method ?? 'a response') : 'none'}, not notifications/subscriptions/acknowledged`);
  }
  for (const e of stream) {
    const method = String(e.message?.method);
    if (e.kind === 'notification' && subscriptionOf(e) !== id) problems.push(`${method} carries subscriptionId ${JSON.stringify(subscriptionOf(e))}, not the listen request id ${JSON.stringify(id)}`);
    const agreed = method === 'notifications/subscriptions/acknowledged' && isObject(e.message?.params) && isObject(e.message.params.notifications) ? Object.keys(e.message.params.notifications) : [];
    const types = [...agreed, ...(method in SUBSCRIPTION_TYPES ? [SUBSCRIPTION_TYPES[method]] : [])];
    for (const type of types.filter((t) => !(t in requested))) problems.push(`${method} ${agreed.includes(type) ? 'agrees to' : 'delivers'} ${type}, which the client did not opt into`);
  }
  return problems;
}

/**
 * Results of a stateless session, with the method they answer. A method 2026-07-28 does not have (ping, removed
 * there, as a liveness probe) that a dual-era server answers anyway is answered by its legacy side: not judged here.
 */
function result07(e: Parameters<FrameRule['inspect']>[0]): { method: string; result: Record<string, unknown> } | undefined {
  const m = e.message;
  if (e.revision !== STATELESS_REVISION || e.kind !== 'response' || !m || !isObject(m.result) || !e.exchange) return undefined;
  if (resultDefinition(STATELESS_REVISION, e.exchange.method) === undefined) return undefined;
  return { method: e.exchange.method, result: m.result };
}

export const STATELESS_RULES: FrameRule[] = [
  {
    id: 'stateless/result-type',
    title: 'Every result names its resultType',
    requirement: req07('07.resultType', 'MUST', 'basic#resulttype', 'Every result carries resultType: "complete" or "input_required"'),
    looksAt: 'result in a 2026-07-28 session',
    inspect(e) {
      const r = result07(e);
      if (!r) return undefined;
      const type = r.result.resultType;
      // The Tasks extension adds "task", for the task handle a tools/call may answer with.
      if (type === 'complete' || type === 'input_required' || (type === 'task' && r.method === 'tools/call')) return [];
      if (typeof type === 'string') return [{ severity: 'warn', message: `${r.method}: resultType ${JSON.stringify(type)} is none the spec defines`, expected: ['complete', 'input_required'], actual: type }];
      return failing(`${r.method} result without resultType`, { expected: { resultType: 'complete' }, actual: Object.keys(r.result) });
    },
  },
  {
    id: 'stateless/caching',
    title: 'List, read and discover results carry ttlMs and cacheScope',
    requirement: req07('07.caching', 'MUST', 'server/utilities/caching', 'Complete results of server/discover, the list methods and resources/read carry ttlMs (an integer ≥ 0) and cacheScope ("public" or "private")'),
    looksAt: 'list, read or discover result in a 2026-07-28 session',
    inspect(e) {
      const r = result07(e);
      if (!r || !CACHEABLE.has(r.method) || r.result.resultType === 'input_required') return undefined;
      const { ttlMs, cacheScope } = r.result;
      if (Number.isInteger(ttlMs) && (ttlMs as number) >= 0 && (cacheScope === 'public' || cacheScope === 'private')) return [];
      return failing(`${r.method} result with ttlMs ${JSON.stringify(ttlMs)} and cacheScope ${JSON.stringify(cacheScope)}`, { expected: { ttlMs: 'integer ≥ 0', cacheScope: 'public | private' }, actual: { ttlMs, cacheScope } });
    },
  },
  {
    id: 'stateless/errors/reserved',
    title: 'No retired or undefined error codes',
    requirement: req07('07.errors.reserved', 'MUST', 'basic#error-codes', 'Never -32002 or -32042, never an undefined code in -32020..-32099; new implementations should not use -32000..-32019'),
    looksAt: 'error in a 2026-07-28 session',
    inspect(e) {
      const m = e.message;
      if (e.revision !== STATELESS_REVISION || e.kind !== 'response' || !m || !isObject(m.error) || !Number.isInteger(m.error.code)) return undefined;
      const code = m.error.code as number;
      const about = e.exchange ? ` (answering ${e.exchange.method})` : '';
      if (code === -32002 || code === -32042) return failing(`retired error code ${code}${about}`, { expected: code === -32002 ? -32602 : 'an InputRequiredResult', actual: m.error });
      if (code <= -32020 && code >= -32099 && !DEFINED_RESERVED.has(code)) return failing(`error code ${code}${about} is reserved for the specification and undefined`, { actual: m.error });
      if (code <= -32000 && code >= -32019) return [{ severity: 'warn', message: `legacy implementation-defined error code ${code}${about}`, actual: m.error }];
      return [];
    },
  },
  {
    id: 'stateless/no-server-requests',
    title: 'The server sends no requests',
    requirement: req07('07.no-server-requests', 'MUST', 'basic/patterns', 'Servers never send JSON-RPC requests; they return an InputRequiredResult instead'),
    covers: ['stdio.server-requests'],
    looksAt: 'message in a 2026-07-28 session',
    inspect(e) {
      const m = e.message;
      if (e.revision !== STATELESS_REVISION || !m) return undefined;
      return e.kind === 'request' ? failing(`the server sent a ${String(m.method)} request`, { expected: 'no server-to-client requests', actual: m }) : [];
    },
  },
  {
    id: 'stateless/logging/requested-only',
    title: 'No log messages for requests that did not ask for them',
    requirement: req07('log.07', 'MUST', 'server/utilities/logging#per-request-log-level', 'The server MUST NOT emit notifications/message for a request whose _meta does not include io.modelcontextprotocol/logLevel'),
    covers: ['07.logging'],
    looksAt: 'message in a 2026-07-28 session',
    inspect(e) {
      const m = e.message;
      if (e.revision !== STATELESS_REVISION || !m) return undefined;
      if (m.method !== 'notifications/message') return [];
      // Messages come before their request's answer (on its own stream over HTTP): one that asked must still be waiting.
      const asked = e.inFlight?.().some((x) => isObject(x.params) && isObject(x.params._meta) && x.params._meta[LOG_LEVEL] !== undefined);
      return asked ? [] : failing('notifications/message sent, though no request waiting for an answer set a log level', { actual: m });
    },
  },
  {
    id: 'stateless/input-required',
    title: 'Input is asked for only on tools/call, prompts/get and resources/read, and only through declared client capabilities',
    requirement: req07('07.mrtr', 'MUST', 'basic/patterns/mrtr', 'An InputRequiredResult answers only tools/call, prompts/get or resources/read; it holds inputRequests or requestState; it asks only for input the request declared the client capability for'),
    looksAt: 'InputRequiredResult in a 2026-07-28 session',
    inspect(e) {
      const r = result07(e);
      if (!r || r.result.resultType !== 'input_required') return undefined;
      if (!MRTR_METHODS.has(r.method)) return failing(`${r.method} was answered with an InputRequiredResult`, { expected: [...MRTR_METHODS], actual: r.method });
      if (r.result.inputRequests === undefined && r.result.requestState === undefined) return failing(`${r.method}: an InputRequiredResult with neither inputRequests nor requestState`, { actual: r.result });
      const meta = isObject(e.exchange!.params) && isObject(e.exchange!.params._meta) ? e.exchange!.params._meta : {};
      const declared = isObject(meta[CLIENT_CAPABILITIES]) ? meta[CLIENT_CAPABILITIES] : {};
      const undeclared = inputRequestsOf(r.result).filter(([, method]) => INPUT_CAPABILITY[String(method)] !== undefined && declared[INPUT_CAPABILITY[String(method)]] === undefined);
      if (undeclared.length === 0) return [];
      return failing(`${r.method} asked for ${undeclared.map(([, m]) => String(m)).join(', ')} input, though the request did not declare the capability`, { expected: `input requests within ${JSON.stringify(declared)}`, actual: r.result.inputRequests });
    },
  },
];
