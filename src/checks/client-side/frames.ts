// client-side/frames: the JSON-RPC envelope and the shape of every frame the client sends.
import { isObject } from '../../json.js';
import { META } from '../../transport/test-server/conversation.js';
import {
  type ValidationResult,
  clientNotificationDefinition,
  clientRequestDefinition,
  clientResultDefinition,
  isRevision,
  validate,
} from '../../schema/validators.js';
import { type Outcome, fail, pass, skip, warn } from '../kit/check.js';
import { type ClientCheckDef, type ScenarioRecord, appliesTo, excerpt, where } from '../kit/client-check.js';
import { requirement } from '../kit/requirement.js';
import { CLIENT_CAPABILITY_CHECKS } from './capabilities.js';
import { CLIENT_LIFECYCLE_CHECKS } from './lifecycle.js';

const isId = (id: unknown) => typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));

/** What is wrong with one message's envelope, or undefined. */
function envelopeFault(m: unknown): string | undefined {
  if (!isObject(m)) return 'not a JSON object';
  if (m.jsonrpc !== '2.0') return `jsonrpc is ${JSON.stringify(m.jsonrpc)}, not "2.0"`;
  if (typeof m.method === 'string') {
    // Basic › Notifications: "Notifications MUST NOT include an ID"; MCP names every notification notifications/….
    if ('id' in m && m.method.startsWith('notifications/'))
      return `${m.method} is a notification but carries an id (${JSON.stringify(m.id)})`;
    if ('id' in m && !isId(m.id)) return `request id ${JSON.stringify(m.id)} is not a string or integer`;
    if ('params' in m && !isObject(m.params)) return 'params is not an object';
    return undefined;
  }
  if ('method' in m) return 'method is not a string';
  if (!isId(m.id)) return `response id ${JSON.stringify(m.id)} is not a string or integer`;
  if ('result' in m === 'error' in m) return 'a response needs exactly one of result and error';
  if ('error' in m && (!isObject(m.error) || !Number.isInteger(m.error.code) || typeof m.error.message !== 'string'))
    return 'error needs an integer code and a string message';
  return undefined;
}

function firstBad(r: ScenarioRecord, fault: (m: unknown, text: string) => string | undefined): Outcome | undefined {
  for (const f of r.conv.frames) {
    if (f.dir !== 'in') continue;
    const messages = Array.isArray(f.message) ? f.message : [f.message];
    for (const m of messages) {
      const why = fault(m, f.text);
      if (why) return fail(`${where(r)}: ${why}`, { actual: f.text.slice(0, 500), transcript: excerpt(r, [f.seq]) });
    }
  }
  return undefined;
}

export const CLIENT_FRAME_CHECKS: ClientCheckDef[] = [
  {
    id: 'client-side/frames/json',
    title: 'Every frame the client sends is JSON',
    requirement: requirement(
      'client-side.frames.json',
      'MUST',
      'basic#messages',
      'Every message a client sends is a JSON-RPC 2.0 message encoded as UTF-8 JSON',
    ),
    judge: (r) =>
      firstBad(r, (m, text) => (m === undefined ? `not JSON: ${JSON.stringify(text.slice(0, 80))}` : undefined)) ??
      pass(`${where(r)}: ${r.conv.frames.filter((f) => f.dir === 'in').length} frames, all JSON`),
  },
  {
    id: 'client-side/frames/envelope',
    title: 'Requests, notifications and responses have the JSON-RPC envelope',
    requirement: requirement(
      'client-side.frames.envelope',
      'MUST',
      'basic#messages',
      'jsonrpc "2.0"; requests with a string or integer id (never null); notifications without an id; responses with exactly one of result and error',
    ),
    judge: (r) =>
      firstBad(r, (m) => (m === undefined ? undefined : envelopeFault(m))) ?? pass(`${where(r)}: every envelope valid`),
  },
  {
    id: 'client-side/frames/request-id-unique',
    title: 'Request ids are not reused within the session',
    requirement: requirement(
      'client-side.frames.request-id-unique',
      'MUST',
      'basic#requests',
      'The client never reuses a request id within a session',
    ),
    // 2026-07-28 has no session: a retry is a new request and may carry any unused id.
    revisions: ['2025-11-25', '2025-06-18', '2025-03-26'],
    judge: (r) => {
      const seen = new Map<string, number>();
      for (const f of r.conv.frames) {
        if (f.dir !== 'in') continue;
        for (const m of Array.isArray(f.message) ? f.message : [f.message]) {
          if (!isObject(m) || typeof m.method !== 'string' || !isId(m.id)) continue;
          // A new initialize opens a new session (after a 404 for the old one): ids start afresh.
          if (m.method === 'initialize') seen.clear();
          const key = JSON.stringify(m.id);
          if (seen.has(key))
            return fail(`${where(r)}: request id ${key} used twice`, {
              transcript: excerpt(r, [seen.get(key)!, f.seq]),
            });
          seen.set(key, f.seq);
        }
      }
      return seen.size === 0
        ? skip(`${where(r)}: the client sent no request`)
        : pass(`${where(r)}: ${seen.size} ids, none reused`);
    },
  },
  {
    id: 'client-side/frames/schema',
    title: 'Every request, notification and result the client sends validates against the schema',
    requirement: requirement(
      'client-side.frames.schema',
      'MUST',
      'basic#messages',
      "The client's requests, notifications and results have the shape the negotiated revision's schema defines for their method",
    ),
    judge: judgeSchema,
  },
];

type Msg = Record<string, unknown>;

/**
 * What another check owns in a frame the schema also covers, so that one fault is one finding (as the server side's
 * schema rules judge an unreadable error's other fields with its id set aside): while that check fails on the
 * scenario, the schema judges the frame with the part it owns made right, or not at all (undefined).
 */
const OWNED: { check: string; fix(m: Msg, r: ScenarioRecord, answers?: string): Msg | undefined }[] = [
  {
    check: 'client-side/lifecycle/known-version',
    fix: (m, r) => {
      if (!isObject(m.params)) return m;
      if (m.method === 'initialize' && typeof m.params.protocolVersion !== 'string')
        return { ...m, params: { ...m.params, protocolVersion: r.revision } };
      const meta = m.params._meta;
      return isObject(meta) && meta[META.version] !== undefined && typeof meta[META.version] !== 'string'
        ? { ...m, params: { ...m.params, _meta: { ...meta, [META.version]: r.revision } } }
        : m;
    },
  },
  {
    check: 'client-side/stateless/request-meta',
    fix: (m, r) => {
      if (!('id' in m) || typeof m.method !== 'string') return m;
      const params = isObject(m.params) ? m.params : {};
      const meta = isObject(params._meta) ? params._meta : {};
      return {
        ...m,
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': r.revision,
            'io.modelcontextprotocol/clientCapabilities': {},
            ...Object.fromEntries(Object.entries(meta).filter(([, v]) => v !== undefined)),
          },
        },
      };
    },
  },
  {
    check: 'client-side/stateless/request-state',
    fix: (m) => {
      if (m.method !== 'tools/call' || !isObject(m.params)) return m;
      const { requestState, inputResponses } = m.params;
      return {
        ...m,
        params: {
          ...m.params,
          ...('requestState' in m.params && typeof requestState !== 'string' && { requestState: '' }),
          ...('inputResponses' in m.params && !isObject(inputResponses) && { inputResponses: {} }),
        },
      };
    },
  },
  // The answers a capability check judges: while it fails, their shape is its finding.
  ...(
    [
      ['client-side/capabilities/roots', 'roots/list'],
      ['client-side/capabilities/sampling', 'sampling/createMessage'],
      ['client-side/capabilities/elicitation', 'elicitation/create'],
    ] as const
  ).map(([check, method]) => ({
    check,
    fix: (m: Msg, _r: ScenarioRecord, answers?: string) => (answers === method ? undefined : m),
  })),
];
const OWNERS = new Map([...CLIENT_LIFECYCLE_CHECKS, ...CLIENT_CAPABILITY_CHECKS].map((def) => [def.id, def] as const));

/** The owned parts of frames whose owning check fails on this scenario. */
function ownedFixes(r: ScenarioRecord): ((m: Msg, answers?: string) => Msg | undefined)[] {
  return OWNED.filter((o) => {
    const def = OWNERS.get(o.check);
    return def !== undefined && appliesTo(def, r) && def.judge(r).status === 'fail';
  }).map((o) => (m: Msg, answers?: string) => o.fix(m, r, answers));
}

/** Which definition a client message is judged by, with a name for it; undefined for one the schema does not cover. */
function definitionOf(
  r: ScenarioRecord,
  revision: string,
  m: Msg,
): { def?: string; what: string; answers?: string } | undefined {
  if (typeof m.method === 'string')
    return 'id' in m
      ? { def: clientRequestDefinition(revision, m.method), what: `${m.method} request` }
      : { def: clientNotificationDefinition(revision, m.method), what: m.method };
  // An error answer's shape (an integer code and a string message) is the envelope's to judge.
  if (!('result' in m)) return undefined;
  const asked = r.conv.asked.find((a) => a.id === m.id);
  if (!asked) return undefined;
  const task = isObject(asked.params) && isObject(asked.params.task);
  return {
    def: clientResultDefinition(revision, asked.method, task),
    what: `result of ${asked.method}`,
    answers: asked.method,
  };
}

function judgeSchema(r: ScenarioRecord): Outcome {
  // The revision the conversation runs at: the one the server answered initialize with, else the scenario's.
  const revision = r.conv.negotiated && isRevision(r.conv.negotiated) ? r.conv.negotiated : r.revision;
  const fixes = ownedFixes(r);
  const invalid: { seq: number; what: string; def: string; result: Exclude<ValidationResult, { ok: true }> }[] = [];
  const unjudged = new Set<string>();
  let judged = 0;
  for (const f of r.conv.frames) {
    if (f.dir !== 'in') continue;
    for (const raw of Array.isArray(f.message) ? f.message : [f.message]) {
      // Frames that are not JSON, or whose envelope is broken, are the json and envelope checks' findings.
      if (raw === undefined || envelopeFault(raw) !== undefined) continue;
      let m: Msg | undefined = raw as Msg;
      const target = definitionOf(r, revision, m);
      if (!target) continue;
      if (!target.def) {
        unjudged.add(target.what);
        continue;
      }
      for (const fix of fixes) m = m && fix(m, target.answers);
      if (!m) continue;
      judged++;
      const result = validate(revision, target.def, 'result' in m ? m.result : m);
      if (!result.ok) invalid.push({ seq: f.seq, what: target.what, def: target.def, result });
    }
  }
  const notJudged =
    unjudged.size > 0 ? ` (not in the ${revision} schema, not judged: ${[...unjudged].join(', ')})` : '';
  if (judged === 0) return skip(`${where(r)}: the client sent no frame the schema covers${notJudged}`);
  if (invalid.length === 0)
    return pass(`${where(r)}: ${judged} frames valid against the ${revision} schema${notJudged}`);
  const listed = invalid.map((i) => `${i.what} (frame ${i.seq}) against ${i.def}: ${i.result.errors.join('; ')}`);
  const proof = {
    expected: `every client frame valid against the ${revision} schema`,
    actual: listed,
    transcript: excerpt(
      r,
      invalid.map((i) => i.seq),
    ),
  };
  // `format` is an annotation in JSON Schema 2020-12: a frame wrong only by format breaks no MUST (as on the server side).
  const shape = invalid.filter((i) => i.result.formats === undefined);
  return shape.length > 0
    ? fail(
        `${where(r)}: ${shape.length} of ${judged} frames invalid: ${listed.filter((_, k) => invalid[k].result.formats === undefined).join(' | ')}`,
        proof,
      )
    : warn(`${where(r)}: ${invalid.length} frames invalid only by format: ${listed.join(' | ')}`, proof);
}
