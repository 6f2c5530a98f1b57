// Frame rules of the stateless wire (2026-07-28): every result and error of a stateless session.
import { STATELESS_REVISION, resultDefinition } from '../../schema/validators.js';
import { requirement } from '../kit/requirement.js';
import { type FrameRule, failing } from '../kit/frame-rule.js';
import { isObject } from '../../json.js';
import { LOG_LEVEL } from '../conversation/rules.js';
import { INPUT_CAPABILITY, MRTR_METHODS, inputRequestsOf, CLIENT_CAPABILITIES } from './mrtr.js';

/** Results that must carry ttlMs and cacheScope (server/utilities/caching). */
const CACHEABLE = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);
/** The codes 2026-07-28 defines in its reserved range -32020..-32099: HeaderMismatch, MissingRequiredClientCapability, UnsupportedProtocolVersion. */
const DEFINED_RESERVED = new Set([-32020, -32021, -32022]);

/**
 * Results of a stateless session, with the method they answer. A method 2026-07-28 does not have (ping, removed
 * there, as a liveness probe) that a dual-era server answers anyway is answered by its legacy side: not judged here.
 */
function result07(
  e: Parameters<FrameRule['inspect']>[0],
): { method: string; result: Record<string, unknown> } | undefined {
  const m = e.message;
  if (e.revision !== STATELESS_REVISION || e.kind !== 'response' || !m || !isObject(m.result) || !e.exchange)
    return undefined;
  if (resultDefinition(STATELESS_REVISION, e.exchange.method) === undefined) return undefined;
  return { method: e.exchange.method, result: m.result };
}

export const STATELESS_RULES: FrameRule[] = [
  {
    id: 'stateless/result-type',
    title: 'Every result names its resultType',
    requirement: requirement(
      '07.resultType',
      'MUST',
      'basic#resulttype',
      'Every result carries resultType: "complete" or "input_required"',
      STATELESS_REVISION,
    ),
    looksAt: 'result in a 2026-07-28 session',
    inspect(e) {
      const r = result07(e);
      if (!r) return undefined;
      const type = r.result.resultType;
      // The Tasks extension adds "task", for the task handle a tools/call may answer with.
      if (type === 'complete' || type === 'input_required' || (type === 'task' && r.method === 'tools/call')) return [];
      if (typeof type === 'string')
        return [
          {
            severity: 'warn',
            message: `${r.method}: resultType ${JSON.stringify(type)} is none the spec defines`,
            expected: ['complete', 'input_required'],
            actual: type,
          },
        ];
      return failing(`${r.method} result without resultType`, {
        expected: { resultType: 'complete' },
        actual: Object.keys(r.result),
      });
    },
  },
  {
    id: 'stateless/caching',
    title: 'List, read and discover results carry ttlMs and cacheScope',
    requirement: requirement(
      '07.caching',
      'MUST',
      'server/utilities/caching',
      'Complete results of server/discover, the list methods and resources/read carry ttlMs (an integer ≥ 0) and cacheScope ("public" or "private")',
      STATELESS_REVISION,
    ),
    looksAt: 'list, read or discover result in a 2026-07-28 session',
    inspect(e) {
      const r = result07(e);
      if (!r || !CACHEABLE.has(r.method) || r.result.resultType === 'input_required') return undefined;
      const { ttlMs, cacheScope } = r.result;
      if (Number.isInteger(ttlMs) && (ttlMs as number) >= 0 && (cacheScope === 'public' || cacheScope === 'private'))
        return [];
      return failing(
        `${r.method} result with ttlMs ${JSON.stringify(ttlMs)} and cacheScope ${JSON.stringify(cacheScope)}`,
        { expected: { ttlMs: 'integer ≥ 0', cacheScope: 'public | private' }, actual: { ttlMs, cacheScope } },
      );
    },
  },
  {
    id: 'stateless/errors/reserved',
    title: 'No retired or undefined error codes',
    requirement: requirement(
      '07.errors.reserved',
      'MUST',
      'basic#error-codes',
      'Never -32002 or -32042, never an undefined code in -32020..-32099; new implementations should not use -32000..-32019',
      STATELESS_REVISION,
    ),
    looksAt: 'error in a 2026-07-28 session',
    inspect(e) {
      const m = e.message;
      if (
        e.revision !== STATELESS_REVISION ||
        e.kind !== 'response' ||
        !m ||
        !isObject(m.error) ||
        !Number.isInteger(m.error.code)
      )
        return undefined;
      const code = m.error.code as number;
      const about = e.exchange ? ` (answering ${e.exchange.method})` : '';
      if (code === -32002 || code === -32042)
        return failing(`retired error code ${code}${about}`, {
          expected: code === -32002 ? -32602 : 'an InputRequiredResult',
          actual: m.error,
        });
      if (code <= -32020 && code >= -32099 && !DEFINED_RESERVED.has(code))
        return failing(`error code ${code}${about} is reserved for the specification and undefined`, {
          actual: m.error,
        });
      if (code <= -32000 && code >= -32019)
        return [
          { severity: 'warn', message: `legacy implementation-defined error code ${code}${about}`, actual: m.error },
        ];
      return [];
    },
  },
  {
    id: 'stateless/no-server-requests',
    title: 'The server sends no requests',
    requirement: requirement(
      '07.no-server-requests',
      'MUST',
      'basic/patterns',
      'Servers never send JSON-RPC requests; they return an InputRequiredResult instead',
      STATELESS_REVISION,
    ),
    covers: ['stdio.server-requests'],
    looksAt: 'message in a 2026-07-28 session',
    inspect(e) {
      const m = e.message;
      if (e.revision !== STATELESS_REVISION || !m) return undefined;
      return e.kind === 'request'
        ? failing(`the server sent a ${String(m.method)} request`, {
            expected: 'no server-to-client requests',
            actual: m,
          })
        : [];
    },
  },
  {
    id: 'stateless/logging/requested-only',
    title: 'No log messages for requests that did not ask for them',
    requirement: requirement(
      'log.07',
      'MUST',
      'server/utilities/logging#per-request-log-level',
      'The server MUST NOT emit notifications/message for a request whose _meta does not include io.modelcontextprotocol/logLevel',
      STATELESS_REVISION,
    ),
    covers: ['07.logging'],
    looksAt: 'message in a 2026-07-28 session',
    inspect(e) {
      const m = e.message;
      if (e.revision !== STATELESS_REVISION || !m) return undefined;
      if (m.method !== 'notifications/message') return [];
      // Messages come before their request's answer (on its own stream over HTTP): one that asked must still be waiting.
      const asked = e
        .inFlight?.()
        .some((x) => isObject(x.params) && isObject(x.params._meta) && x.params._meta[LOG_LEVEL] !== undefined);
      return asked
        ? []
        : failing('notifications/message sent, though no request waiting for an answer set a log level', { actual: m });
    },
  },
  {
    id: 'stateless/input-required',
    title:
      'Input is asked for only on tools/call, prompts/get and resources/read, and only through declared client capabilities',
    requirement: requirement(
      '07.mrtr',
      'MUST',
      'basic/patterns/mrtr',
      'An InputRequiredResult answers only tools/call, prompts/get or resources/read; it holds inputRequests or requestState; it asks only for input the request declared the client capability for',
      STATELESS_REVISION,
    ),
    looksAt: 'InputRequiredResult in a 2026-07-28 session',
    inspect(e) {
      const r = result07(e);
      if (r?.result.resultType !== 'input_required') return undefined;
      if (!MRTR_METHODS.has(r.method))
        return failing(`${r.method} was answered with an InputRequiredResult`, {
          expected: [...MRTR_METHODS],
          actual: r.method,
        });
      if (r.result.inputRequests === undefined && r.result.requestState === undefined)
        return failing(`${r.method}: an InputRequiredResult with neither inputRequests nor requestState`, {
          actual: r.result,
        });
      const meta = isObject(e.exchange!.params) && isObject(e.exchange!.params._meta) ? e.exchange!.params._meta : {};
      const declared = isObject(meta[CLIENT_CAPABILITIES]) ? meta[CLIENT_CAPABILITIES] : {};
      const undeclared = inputRequestsOf(r.result).filter(
        ([, method]) =>
          INPUT_CAPABILITY[String(method)] !== undefined && declared[INPUT_CAPABILITY[String(method)]] === undefined,
      );
      if (undeclared.length === 0) return [];
      return failing(
        `${r.method} asked for ${undeclared.map(([, m]) => String(m)).join(', ')} input, though the request did not declare the capability`,
        { expected: `input requests within ${JSON.stringify(declared)}`, actual: r.result.inputRequests },
      );
    },
  },
];
