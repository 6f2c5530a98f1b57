// Checks and frame rules of the stateless wire (2026-07-28, requirements §1.21): they apply to no other revision.
import { walkList } from '../discovery/discover.js';
import { STATELESS_REVISION, validate } from '../schema/validators.js';
import type { Level } from '../schema/generated/report.js';
import { type CheckDef, describeReply, errorOf, fail, pass, requirement, requires, skip, warn } from './check.js';
import type { Finding, FrameRule } from './frame-rules.js';
import { isObject } from '../json.js';

const only07 = [STATELESS_REVISION];
const req07 = (id: string, level: Level, page: string, text: string) => requirement(id, level, page, text, STATELESS_REVISION);
const failing = (message: string, extra: Partial<Finding> = {}): Finding[] => [{ severity: 'fail', message, ...extra }];

/** Results that must carry ttlMs and cacheScope (server/utilities/caching). */
const CACHEABLE = new Set(['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read']);
/** The codes 2026-07-28 defines in its reserved range -32020..-32099: HeaderMismatch, MissingRequiredClientCapability, UnsupportedProtocolVersion. */
const DEFINED_RESERVED = new Set([-32020, -32021, -32022]);
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

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
      if (!valid.ok) return fail('the server/discover result is not a valid DiscoverResult', { expected: 'a valid DiscoverResult', actual: valid.errors });
      const versions = result.supportedVersions as string[];
      if (!versions.includes(STATELESS_REVISION)) return fail(`supportedVersions ${JSON.stringify(versions)} lacks ${STATELESS_REVISION}`, { actual: versions });
      if (!isObject(result._meta) || !isObject(result._meta[SERVER_INFO])) return warn(`no ${SERVER_INFO} in the result's _meta`, { expected: { _meta: { [SERVER_INFO]: '{ name, version }' } }, actual: result._meta });
      return pass(`supports ${versions.join(', ')}`);
    },
  },
  {
    id: 'stateless/meta/required',
    title: 'A request whose _meta lacks clientCapabilities is rejected with -32602',
    requirement: req07('07.meta.required', 'MUST', 'basic#per-request-protocol-fields', 'A request missing io.modelcontextprotocol/protocolVersion or …/clientCapabilities in _meta is rejected with -32602'),
    revisions: only07,
    async run(ctx) {
      // The version stays: a dual-era server may rightly take a request with no protocol fields for a legacy one.
      const session = await ctx.fresh();
      session.requestMeta = { 'io.modelcontextprotocol/protocolVersion': STATELESS_REVISION };
      const reply = await session.request('tools/list', {});
      const code = errorOf(reply)?.code;
      if (code === -32602) return pass('tools/list without clientCapabilities → -32602');
      const outcome = code === undefined ? fail : warn;
      return outcome(`tools/list without clientCapabilities was ${code === undefined ? 'served' : `rejected with ${JSON.stringify(code)}`}`, { expected: { error: { code: -32602 } }, actual: describeReply(reply) });
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
    title: 'tools/list returns the same tools in the same order on another connection',
    requirement: req07('07.tools.deterministic', 'SHOULD', 'server/tools#listing-tools', 'Servers should return tools in a deterministic order; the list must not vary per connection'),
    covers: ['tools.list.order', 'tools.list.no-vary'],
    revisions: only07,
    async run(ctx) {
      const none = requires(ctx, 'tools');
      if (none) return none;
      const first = ctx.profile.tools.map((t) => t.name);
      if (first.length < 2) return skip('fewer than two tools: there is no order to compare');
      const { items, walk } = await walkList(await ctx.fresh(), 'tools/list', 'tools', 'name');
      if (walk.problem) return fail(`the second tools/list walk failed: ${walk.problem}`, { actual: walk });
      const second = items.map((t) => t.name);
      if (JSON.stringify(first) === JSON.stringify(second)) return pass(`${first.length} tools, same order twice`);
      const sorted = (names: unknown[]) => JSON.stringify(names.map(String).sort());
      // Other tools on another connection break a MUST NOT; another order only the SHOULD.
      const outcome = sorted(first) === sorted(second) ? warn : fail;
      return outcome(`tools/list gave ${outcome === warn ? 'another order' : 'other tools'} on another connection`, { expected: first, actual: second });
    },
  },
];

/** Results of a stateless session, with the method they answer. */
function result07(e: Parameters<FrameRule['inspect']>[0]): { method: string; result: Record<string, unknown> } | undefined {
  const m = e.message;
  if (e.revision !== STATELESS_REVISION || e.kind !== 'response' || !m || !isObject(m.result) || !e.exchange) return undefined;
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
      if (type === 'complete' || type === 'input_required') return [];
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
    requirement: req07('log.07', 'MUST', 'server/utilities/logging', 'notifications/message only for requests whose _meta carries io.modelcontextprotocol/logLevel (the suite never sends one)'),
    covers: ['07.logging'],
    looksAt: 'message in a 2026-07-28 session',
    inspect(e) {
      const m = e.message;
      if (e.revision !== STATELESS_REVISION || !m) return undefined;
      return m.method === 'notifications/message' ? failing('notifications/message sent, though no request set a log level', { actual: m }) : [];
    },
  },
];
