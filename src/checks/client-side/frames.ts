// client-side/frames: the JSON-RPC envelope and the shape of every frame the client sends.
import { isObject } from '../../json.js';
import { type Outcome, fail, pass, skip } from '../kit/check.js';
import { type ClientCheckDef, type ScenarioRecord, excerpt, where } from '../kit/client-check.js';
import { requirement } from '../kit/requirement.js';

const isId = (id: unknown) => typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));

/** What is wrong with one message's envelope, or undefined. */
function envelopeFault(m: unknown): string | undefined {
  if (!isObject(m)) return 'not a JSON object';
  if (m.jsonrpc !== '2.0') return `jsonrpc is ${JSON.stringify(m.jsonrpc)}, not "2.0"`;
  if (typeof m.method === 'string') {
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
];
