// client-side/stateless, multi round-trip requests (2026-07-28, SEP-2322) beyond the requestState echo
// (client-side/stateless/request-state): a retry is a new request, carries no state the server did not send it, and
// the fields of one input-required answer go to its own retry alone; a result without resultType is complete.
// Each call that carries inputResponses or requestState has at most one owner among these checks (faultOf).
import { isObject } from '../../json.js';
import type { Conversation } from '../../transport/test-server/conversation.js';
import { STATELESS } from '../../transport/test-server/conversation.js';
import { fail, pass, skip } from '../kit/check.js';
import { type ClientCheckDef, type ScenarioRecord, excerpt, requestsOf, where } from '../kit/client-check.js';
import { requirement } from '../kit/requirement.js';

type Asked = Conversation['inputRequired'][number];
type Owner = 'retry-new-id' | 'no-invented-state' | 'state-isolated' | 'result-type-default';
type Message = Record<string, unknown>;

const paramsOf = (m: Message) => (isObject(m.params) ? m.params : {});
const carries = (m: Message) => 'requestState' in paramsOf(m) || 'inputResponses' in paramsOf(m);
const sameCall = (a: Message, b: Message) =>
  paramsOf(a).name === paramsOf(b).name &&
  JSON.stringify(paramsOf(a).arguments ?? {}) === JSON.stringify(paramsOf(b).arguments ?? {});
const name = (m: Message) => `${String(paramsOf(m).name)} (id ${JSON.stringify(m.id)})`;
const seqOf = (r: ScenarioRecord, m: Message) =>
  r.conv.frames.find((f) => f.message === m || (Array.isArray(f.message) && f.message.includes(m)))?.seq ?? 0;

/** The input_required answer call `i` retries: the latest given before it to a call of the same tool and arguments. */
function originOf(r: ScenarioRecord, calls: Message[], i: number): Asked | undefined {
  let found: Asked | undefined;
  for (const a of r.conv.inputRequired) {
    const at = calls.indexOf(a.request);
    if (at >= 0 && at < i && sameCall(a.request, calls[i]!)) found = a;
  }
  return found;
}

/** The check that owns what is wrong with call `i`, and what; undefined when nothing is (or request-state owns it). */
function faultOf(r: ScenarioRecord, calls: Message[], i: number): { owner: Owner; why: string } | undefined {
  const c = calls[i]!;
  const p = paramsOf(c);
  if (!carries(c)) return undefined;
  const tool = r.scenario.tools.find((t) => t.name === p.name);
  const before = calls.slice(0, i).some((m) => paramsOf(m).name === p.name);
  if (tool?.does === 'no-result-type' && before)
    return {
      owner: 'result-type-default',
      why: `${name(c)} retries a result that had no resultType (complete), with inputResponses or requestState`,
    };
  const origin = originOf(r, calls, i);
  const hasState = 'requestState' in p;
  const issuer = hasState ? r.conv.inputRequired.find((a) => a.state === p.requestState) : undefined;
  if (issuer && issuer !== origin)
    return {
      owner: 'state-isolated',
      why: `${name(c)} carries the requestState the server gave ${name(issuer.request)}`,
    };
  if (!origin)
    return hasState && !issuer
      ? {
          owner: 'no-invented-state',
          why: `${name(c)} carries requestState ${JSON.stringify(p.requestState)}, which the server never sent`,
        }
      : {
          owner: 'state-isolated',
          why: `${name(c)} carries inputResponses though it retries no input-required answer`,
        };
  if (origin.state === undefined && hasState)
    return {
      owner: 'no-invented-state',
      why: `${name(c)} carries requestState ${JSON.stringify(p.requestState)}, though the answer to ${name(origin.request)} had none`,
    };
  if (origin.request.id !== undefined && JSON.stringify(origin.request.id) === JSON.stringify(c.id))
    return { owner: 'retry-new-id', why: `the retry of ${name(origin.request)} has the same JSON-RPC id` };
  return undefined;
}

/** One check's verdict over the scenario's calls: the first call it owns fails it; `judged` counts what it looked at. */
function judgeOwner(r: ScenarioRecord, owner: Owner, judged: (calls: Message[]) => number, what: string) {
  const calls = requestsOf(r).filter((m) => m.method === 'tools/call');
  if (calls.length === 0) return skip(`${where(r)}: the client did not ${r.scenario.asks}`);
  for (let i = 0; i < calls.length; i++) {
    const f = faultOf(r, calls, i);
    if (f?.owner === owner) return fail(`${where(r)}: ${f.why}`, { transcript: excerpt(r, [seqOf(r, calls[i]!)]) });
  }
  const n = judged(calls);
  return n === 0 ? skip(`${where(r)}: ${what} did not happen`) : pass(`${where(r)}: ${n} judged, none at fault`);
}

const retries = (r: ScenarioRecord, calls: Message[], stateless?: boolean) =>
  calls.filter((c, i) => {
    const o = carries(c) ? originOf(r, calls, i) : undefined;
    return o !== undefined && (stateless === undefined || (o.state === undefined) === stateless);
  }).length;

const MRTR = 'basic/patterns/mrtr';
const SCENARIO = ['sep-2322-client-request-state'];

export const CLIENT_MRTR_CHECKS: ClientCheckDef[] = [
  {
    id: 'client-side/stateless/retry-new-id',
    title: 'The retry after an input-required answer is a new request, with a new JSON-RPC id',
    requirement: requirement(
      'client-side.stateless.retry-new-id',
      'MUST',
      MRTR,
      'The retry of a request answered with an InputRequiredResult has a JSON-RPC id other than the first request’s',
      STATELESS,
    ),
    revisions: [STATELESS],
    scenarios: SCENARIO,
    judge: (r) => judgeOwner(r, 'retry-new-id', (calls) => retries(r, calls), 'a retry'),
  },
  {
    id: 'client-side/stateless/no-invented-state',
    title: 'No requestState on a retry whose input-required answer had none',
    requirement: requirement(
      'client-side.stateless.no-invented-state',
      'MUST',
      MRTR,
      'A client sends a requestState only as the server gave it: none on the retry of an InputRequiredResult without one',
      STATELESS,
    ),
    revisions: [STATELESS],
    scenarios: SCENARIO,
    judge: (r) =>
      judgeOwner(
        r,
        'no-invented-state',
        (calls) => retries(r, calls, true),
        'a retry of an answer without requestState',
      ),
  },
  {
    id: 'client-side/stateless/state-isolated',
    title: 'inputResponses and requestState go to the retry of their own request alone',
    requirement: requirement(
      'client-side.stateless.state-isolated',
      'MUST',
      MRTR,
      'The inputRequests and requestState of one InputRequiredResult are used for the retry of that request alone, not for another call',
      STATELESS,
    ),
    revisions: [STATELESS],
    scenarios: SCENARIO,
    judge: (r) =>
      judgeOwner(
        r,
        'state-isolated',
        (calls) => (r.conv.inputRequired.length === 0 ? 0 : calls.length),
        'an input-required answer',
      ),
  },
  {
    id: 'client-side/stateless/result-type-default',
    title: 'A result without resultType is taken as complete: no retry',
    requirement: requirement(
      'client-side.stateless.result-type-default',
      'MUST',
      'schema#result',
      'A client takes a result without resultType as complete: it does not retry it with inputResponses or requestState',
      STATELESS,
    ),
    revisions: [STATELESS],
    scenarios: SCENARIO,
    judge: (r) => {
      const bare = r.scenario.tools.filter((t) => t.does === 'no-result-type').map((t) => t.name);
      return judgeOwner(
        r,
        'result-type-default',
        (calls) => calls.filter((c) => bare.includes(paramsOf(c).name as string)).length,
        'a call of a tool whose result has no resultType',
      );
    },
  },
];
