// client-side/lifecycle and client-side/stateless: how the client opens and keeps the conversation, on both wires.
import { isObject } from '../../json.js';
import { KNOWN_VERSIONS } from '../../schema/revisions.js';
import { META, STATELESS } from '../../transport/test-server/conversation.js';
import { fail, pass, skip, warn } from '../kit/check.js';
import {
  type ClientCheckDef,
  type ScenarioRecord,
  excerpt,
  fromClient,
  requestsOf,
  where,
} from '../kit/client-check.js';
import { requirement } from '../kit/requirement.js';

const INIT = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
const silentClient = (r: ScenarioRecord) => skip(`${where(r)}: the client sent nothing`);
/** The error the server answered the client's request `id` with, if it did. */
const errorAnswer = (r: ScenarioRecord, id: unknown) =>
  r.conv.frames.find((f) => f.dir === 'out' && isObject(f.message) && f.message.id === id && 'error' in f.message)
    ?.message as { error?: { code?: unknown; data?: { supported?: unknown; requested?: unknown } } } | undefined;
const refused = (r: ScenarioRecord, id: unknown) => errorAnswer(r, id) !== undefined;
const seqOf = (r: ScenarioRecord, m: unknown) =>
  r.conv.frames.find((f) => f.message === m || (Array.isArray(f.message) && f.message.includes(m)))?.seq ?? 0;

/** The per-request fields 2026-07-28 requires ("fields marked as required MUST be included on every request"). */
const REQUIRED_META = [META.version, META.capabilities];
const metaOf = (m: Record<string, unknown>) =>
  isObject(m.params) && isObject(m.params._meta) ? m.params._meta : ({} as Record<string, unknown>);

const FIRST_REVISION = '2024-11-05';
const LATER = 'a date after the newest revision';
const isDate = (v: string) => {
  const t = Date.parse(`${v}T00:00:00Z`);
  return /^\d{4}-\d\d-\d\d$/.test(v) && !Number.isNaN(t) && new Date(t).toISOString().startsWith(v);
};

/** Why a protocol version names no MCP revision (LATER: a date after the newest, maybe one this suite predates). */
function versionFault(v: unknown): string | undefined {
  if (typeof v === 'string' && KNOWN_VERSIONS.includes(v)) return undefined;
  if (typeof v !== 'string' || !isDate(v)) return 'not a revision date (YYYY-MM-DD)';
  if (v < FIRST_REVISION) return `a date before ${FIRST_REVISION}, the first MCP revision`;
  return v > KNOWN_VERSIONS[KNOWN_VERSIONS.length - 1] ? LATER : 'a date between revisions, which names none';
}

/**
 * The protocol versions the client asked for: initialize's (each, as a client re-initializes after a 404), or on
 * 2026-07-28 each request's _meta protocol version (an absent one is request-meta's finding).
 */
function versionsAsked(r: ScenarioRecord): { what: string; version: unknown; message: unknown }[] {
  return requestsOf(r).flatMap((m) => {
    const params = isObject(m.params) ? m.params : {};
    if (r.revision !== STATELESS)
      return m.method === 'initialize' ? [{ what: 'initialize', version: params.protocolVersion, message: m }] : [];
    const meta = metaOf(m);
    return meta[META.version] === undefined
      ? []
      : [{ what: `${String(m.method)} (_meta)`, version: meta[META.version], message: m }];
  });
}

export const CLIENT_LIFECYCLE_CHECKS: ClientCheckDef[] = [
  {
    id: 'client-side/lifecycle/initialize-first',
    title: 'initialize is the first request',
    requirement: requirement(
      'client-side.lifecycle.initialize-first',
      'MUST',
      'basic/lifecycle#initialization',
      'The initialization phase is the first interaction: the client sends initialize before any other request',
    ),
    revisions: INIT,
    judge: (r) => {
      // A dual-era client probes with server/discover first (2026-07-28 server/discover: "A client that supports both
      // modern … and legacy … servers SHOULD send server/discover first"); refused, the probe opened nothing, so the
      // initialization phase still comes first. A probe the server answered is judged as any other first request.
      const probes = requestsOf(r).filter((m) => m.method === 'server/discover' && refused(r, m.id));
      const first = requestsOf(r).find((m) => m.method !== 'ping' && !probes.includes(m));
      if (!first) return silentClient(r);
      if (first.method === 'initialize')
        return pass(
          `${where(r)}: initialize first${probes.length > 0 ? ' (after a server/discover probe the server refused)' : ''}`,
        );
      return fail(`${where(r)}: the first request was ${String(first.method)}, not initialize`, {
        transcript: excerpt(r, [seqOf(r, first)]),
      });
    },
  },
  {
    id: 'client-side/lifecycle/initialized',
    title: 'notifications/initialized follows the result, before other requests but ping',
    requirement: requirement(
      'client-side.lifecycle.initialized',
      'MUST',
      'basic/lifecycle#initialization',
      'After a successful initialize result the client sends notifications/initialized; it sends no request but ping before the server answered initialize',
    ),
    revisions: INIT,
    judge: (r) => {
      const messages = fromClient(r);
      const init = messages.findIndex((m) => m.method === 'initialize');
      if (init < 0) return silentClient(r);
      const after = messages.slice(init + 1);
      const notified = after.findIndex((m) => m.method === 'notifications/initialized');
      const early = after
        .slice(0, notified < 0 ? after.length : notified)
        .find((m) => 'id' in m && typeof m.method === 'string' && m.method !== 'ping');
      if (early)
        return fail(`${where(r)}: ${String(early.method)} was sent before notifications/initialized`, {
          transcript: excerpt(r, [seqOf(r, early)]),
        });
      if (notified < 0)
        return skip(`${where(r)}: the client sent no notifications/initialized, and no request after initialize`);
      return pass(`${where(r)}: notifications/initialized before any other request`);
    },
  },
  {
    id: 'client-side/lifecycle/known-version',
    title: 'The protocol version the client asks for names an MCP revision',
    requirement: requirement(
      'client-side.lifecycle.known-version',
      'MUST',
      'basic/lifecycle#version-negotiation',
      "In initialize (on 2026-07-28, in each request's _meta) the client asks for a protocol version it supports: an MCP revision's date (an unknown date after the newest revision warns: a revision this suite does not know yet)",
    ),
    judge: (r) => {
      const asked = versionsAsked(r);
      if (asked.length === 0)
        return r.revision === STATELESS
          ? skip(`${where(r)}: no request named a protocol version in _meta (see client-side/stateless/request-meta)`)
          : silentClient(r);
      const named = asked.map((a) => ({ ...a, fault: versionFault(a.version) }));
      const bad = named.find((a) => a.fault && a.fault !== LATER);
      const proof = (a: (typeof named)[number]) => ({
        expected: `an MCP revision's date: ${KNOWN_VERSIONS.join(', ')}`,
        transcript: excerpt(r, [seqOf(r, a.message)]),
      });
      if (bad)
        return fail(`${where(r)}: ${bad.what} asks for ${JSON.stringify(bad.version)}, ${bad.fault}`, proof(bad));
      const later = named.find((a) => a.fault === LATER);
      if (later)
        return warn(
          `${where(r)}: ${later.what} asks for ${JSON.stringify(later.version)}, ${LATER} (${KNOWN_VERSIONS.at(-1)}): a revision this suite does not know, or none`,
          proof(later),
        );
      return pass(`${where(r)}: asked for ${[...new Set(asked.map((a) => a.version))].join(', ')}`);
    },
  },
  {
    id: 'client-side/lifecycle/initialize-not-cancelled',
    title: 'initialize is never cancelled',
    requirement: requirement(
      'client-side.lifecycle.initialize-not-cancelled',
      'MUST',
      'basic/utilities/cancellation#cancellation-flow',
      'The client never cancels its initialize request',
    ),
    revisions: INIT,
    judge: (r) => {
      const init = requestsOf(r).find((m) => m.method === 'initialize');
      if (!init) return silentClient(r);
      const cancel = fromClient(r).find(
        (m) => m.method === 'notifications/cancelled' && isObject(m.params) && m.params.requestId === init.id,
      );
      return cancel
        ? fail(`${where(r)}: notifications/cancelled names initialize's id`, {
            transcript: excerpt(r, [seqOf(r, cancel)]),
          })
        : pass(`${where(r)}: initialize not cancelled`);
    },
  },
  {
    id: 'client-side/stateless/request-meta',
    title: 'Every 2026-07-28 request carries its protocol version and client capabilities in _meta',
    requirement: requirement(
      'client-side.stateless.request-meta',
      'MUST',
      'basic#per-request-protocol-fields',
      'On 2026-07-28 every request carries io.modelcontextprotocol/protocolVersion and clientCapabilities in params._meta',
      STATELESS,
    ),
    revisions: [STATELESS],
    judge: (r) => {
      const requests = requestsOf(r);
      if (requests.length === 0) return silentClient(r);
      for (const m of requests) {
        const missing = REQUIRED_META.filter((k) => metaOf(m)[k] === undefined);
        if (missing.length > 0)
          return fail(`${where(r)}: ${String(m.method)} lacks ${missing.join(', ')} in _meta`, {
            transcript: excerpt(r, [seqOf(r, m)]),
          });
      }
      return pass(`${where(r)}: ${requests.length} requests, each with its protocol version and capabilities in _meta`);
    },
  },
  {
    id: 'client-side/stateless/client-info',
    title: 'Every 2026-07-28 request carries clientInfo in _meta',
    // 2026-07-28 Overview › _meta: "Clients SHOULD include io.modelcontextprotocol/clientInfo on every request unless
    // specifically configured not to do so" (the field is not required: a request without it is not malformed).
    requirement: requirement(
      'client-side.stateless.client-info',
      'SHOULD',
      'basic#per-request-protocol-fields',
      'On 2026-07-28 every request carries io.modelcontextprotocol/clientInfo in params._meta',
      STATELESS,
    ),
    revisions: [STATELESS],
    judge: (r) => {
      // A request without the required fields is request-meta's finding: one fault, one finding.
      const judged = requestsOf(r).filter((m) => REQUIRED_META.every((k) => metaOf(m)[k] !== undefined));
      if (judged.length === 0)
        return skip(`${where(r)}: no request with the required _meta fields (see client-side/stateless/request-meta)`);
      const without = judged.find((m) => metaOf(m)[META.clientInfo] === undefined);
      return without
        ? warn(`${where(r)}: ${String(without.method)} lacks ${META.clientInfo} in _meta`, {
            transcript: excerpt(r, [seqOf(r, without)]),
          })
        : pass(`${where(r)}: ${judged.length} requests, each with clientInfo in _meta`);
    },
  },
  {
    id: 'client-side/stateless/version-retry',
    title: 'An unsupported-version error (-32022) is answered by a retry with a supported version',
    // 2026-07-28 Versioning › Protocol Version Negotiation: "The client SHOULD select a mutually supported version
    // from the supported list and retry the request, or surface an error to the user if no compatible version exists."
    // The scenario names 2026-07-28, the version the client asked for, so a compatible version exists.
    requirement: requirement(
      'client-side.stateless.version-retry',
      'SHOULD',
      'basic/versioning#protocol-version-negotiation',
      'A client refused with -32022 retries the request with a version from the supported list it also speaks (giving up is for when none is shared)',
      STATELESS,
    ),
    revisions: [STATELESS],
    scenarios: ['request-metadata'],
    judge: (r) => {
      const requests = requestsOf(r);
      if (requests.length === 0) return silentClient(r);
      const first = requests[0];
      const answer = errorAnswer(r, first.id);
      const code = answer?.error?.code;
      if (code !== -32022)
        return skip(
          `${where(r)}: ${String(first.method)} was answered with ${code === undefined ? 'no error' : `error ${String(code)}`}, not -32022`,
        );
      const retry = requests.slice(1).find((m) => m.method === first.method);
      if (!retry)
        return warn(
          `${where(r)}: ${String(first.method)} was refused with -32022 (supported ${JSON.stringify(answer?.error?.data?.supported)}, requested ${JSON.stringify(answer?.error?.data?.requested)}) and not retried`,
          { transcript: excerpt(r, [seqOf(r, first)]) },
        );
      const meta = metaOf(retry);
      if (meta[META.version] === undefined)
        return skip(`${where(r)}: the retry has no protocol version in _meta (see client-side/stateless/request-meta)`);
      return meta[META.version] === STATELESS
        ? pass(`${where(r)}: retried with ${STATELESS}`)
        : warn(`${where(r)}: retried with ${JSON.stringify(meta[META.version])}, not a version the error named`, {
            transcript: excerpt(r, [seqOf(r, retry)]),
          });
    },
  },
  {
    id: 'client-side/stateless/request-state',
    title: 'An input-required retry carries the input responses and echoes requestState',
    requirement: requirement(
      'client-side.stateless.request-state',
      'MUST',
      'basic/patterns/mrtr',
      'The retry after an InputRequiredResult carries inputResponses for its inputRequests and its requestState unchanged',
      STATELESS,
    ),
    revisions: [STATELESS],
    scenarios: ['sep-2322-client-request-state'],
    judge: (r) => {
      // The calls of the tool that answers with a requestState (client-side/stateless/* judge the others).
      const stateful = r.scenario.tools.filter((t) => t.does === 'input-required').map((t) => t.name);
      const calls = requestsOf(r).filter(
        (m) => m.method === 'tools/call' && isObject(m.params) && stateful.includes(m.params.name as string),
      );
      if (calls.length === 0) return skip(`${where(r)}: the client did not ${r.scenario.asks}`);
      const retry = calls.find(
        (m) => isObject(m.params) && ('requestState' in m.params || 'inputResponses' in m.params),
      );
      if (!retry)
        return skip(`${where(r)}: the client did not retry the call (it may have declined the input request)`);
      const p = retry.params as Record<string, unknown>;
      const states = [...r.conv.requestStates.keys()];
      if (typeof p.requestState !== 'string' || !states.includes(p.requestState))
        return fail(`${where(r)}: requestState ${JSON.stringify(p.requestState)} is not the one sent`, {
          expected: states,
          transcript: excerpt(r, [seqOf(r, retry)]),
        });
      if (!isObject(p.inputResponses) || !('ask' in p.inputResponses))
        return fail(`${where(r)}: the retry has no inputResponses.ask`, { transcript: excerpt(r, [seqOf(r, retry)]) });
      return pass(`${where(r)}: requestState echoed with the input response`);
    },
  },
];
