// client-side/lifecycle and client-side/stateless: how the client opens and keeps the conversation, on both wires.
import { isObject } from '../../json.js';
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
    title: 'initialize asks for a protocol version by its date',
    requirement: requirement(
      'client-side.lifecycle.known-version',
      'MUST',
      'basic/lifecycle#version-negotiation',
      'In initialize the client sends a protocol version it supports (a revision date)',
    ),
    revisions: INIT,
    judge: (r) => {
      const init = requestsOf(r).find((m) => m.method === 'initialize');
      if (!init) return silentClient(r);
      const v = isObject(init.params) ? init.params.protocolVersion : undefined;
      if (typeof v === 'string' && /^\d{4}-\d\d-\d\d$/.test(v)) return pass(`${where(r)}: asked for ${v}`);
      return fail(`${where(r)}: initialize's protocolVersion is ${JSON.stringify(v)}`, {
        expected: 'a revision date such as 2025-11-25',
        transcript: excerpt(r, [seqOf(r, init)]),
      });
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
    title: 'Every 2026-07-28 request carries protocol version, capabilities and client info in _meta',
    requirement: requirement(
      'client-side.stateless.request-meta',
      'MUST',
      'basic#per-request-protocol-fields',
      'On 2026-07-28 every request carries io.modelcontextprotocol/protocolVersion, clientCapabilities and clientInfo in params._meta',
      STATELESS,
    ),
    revisions: [STATELESS],
    judge: (r) => {
      const requests = requestsOf(r);
      if (requests.length === 0) return silentClient(r);
      for (const m of requests) {
        const meta = isObject(m.params) && isObject(m.params._meta) ? m.params._meta : {};
        const missing = Object.values(META).filter((k) => meta[k] === undefined);
        if (missing.length > 0)
          return fail(`${where(r)}: ${String(m.method)} lacks ${missing.join(', ')} in _meta`, {
            transcript: excerpt(r, [seqOf(r, m)]),
          });
      }
      return pass(`${where(r)}: ${requests.length} requests, each with the three _meta fields`);
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
      const meta = isObject(retry.params) && isObject(retry.params._meta) ? retry.params._meta : {};
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
