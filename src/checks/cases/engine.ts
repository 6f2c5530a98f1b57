import type { CheckContext, CheckDef, Outcome } from '../kit/check.js';
import { fail, pass, skip, worstOf } from '../kit/check.js';
import type { Case, RawStep, RequestStep, Step } from '../../schema/generated/case.js';
import { SCHEMA_REVISIONS } from '../../schema/validators.js';
import {
  type Exchange,
  type InboundEvent,
  RequestTimeout,
  SessionClosed,
  type Message,
  type Reply,
  type Session,
} from '../../session/session.js';
import { MissingReference, interpolate, lookup } from './interpolate.js';
import type { LoadedCase } from './load.js';
import { match } from './matchers.js';
import { profileView } from './profile-view.js';
import { isObject } from '../../json.js';
import { callableTools } from '../../generate/tool-policy.js';
import { timeoutVerdict } from '../kit/timeouts.js';
import { recordWait } from '../../timing.js';
import { probeAnswerFault } from '../kit/probe-answer.js';

/** How long a server gets to show it is alive after bad input. */

type Judged = RequestStep | RawStep;

/** What a case's steps talk to: the shared session (requests only) or a session of its own. */
interface Channel {
  request(method: string, params: unknown, opts: { id?: string | number; timeoutMs?: number }): Promise<Reply>;
  session?: Session;
  /** Responses that answered no request, since the last call: replies to notifications or to raw lines. */
  takeStrays?(): InboundEvent[];
}

/** Turns a loaded case into a check the runner runs like any other. */
export function caseCheck(c: LoadedCase): CheckDef {
  return {
    id: c.id,
    title: c.title,
    requirement: c.requirement,
    covers: c.covers,
    source: c.file,
    fresh: c.session === 'uninitialized',
    scratch: c.session === 'fresh',
    slowWork: asksListed(c),
    revisions: c.revisions === 'all' ? SCHEMA_REVISIONS : c.revisions,
    requires: c.requires,
    run: (ctx) => runCase(c, ctx),
  };
}

/** What a listed item of each profile list is asked for, work a server may find slow (see slowWork in checks/kit/timeouts.ts). */
const WORK_ON = { tools: 'tools/call', resources: 'resources/read', prompts: 'prompts/get' } as Record<string, string>;

/** A case that asks for the work of each listed tool, resource or prompt: it starts first (see CheckDef.slowWork). */
const asksListed = (c: LoadedCase) =>
  c.forEach !== undefined && c.steps.some((step) => 'request' in step && step.request === WORK_ON[c.forEach!.in]);

async function runCase(c: Case, ctx: CheckContext): Promise<Outcome> {
  const { profile } = ctx;
  const view = profileView(profile);
  const empty = emptyForEach(c, view);
  if (empty) return skip(empty);
  const items = c.forEach ? (lookup(view, c.forEach.in) as unknown[]).slice(0, c.forEach.max ?? 20) : [undefined];

  const channel = await openChannel(c, ctx);
  const outcomes: Outcome[] = [];
  for (const item of items) {
    const scope = c.forEach ? { ...view, [c.forEach.as]: item } : view;
    const label = c.forEach ? describeItem(item) : '';
    for (const step of c.steps) {
      let o: Outcome | undefined;
      try {
        const resolved = interpolate(step, scope) as Step;
        const forbidden = forbiddenCall(resolved, ctx);
        o = forbidden ? skip(forbidden) : await runStep(resolved, c, channel, ctx);
      } catch (err) {
        if (err instanceof MissingReference) o = skip(err.message);
        else throw err;
      }
      if (!o) continue;
      outcomes.push(label && o.status !== 'pass' ? { ...o, message: `${label}: ${o.message}` } : o);
      if (o.status === 'fail' || o.status === 'skip') break;
    }
  }
  return combine(outcomes, items.length, c.forEach?.in);
}

/**
 * Why the run's tool policy (--tool-calls, --allow-tool) forbids this step, when it calls a listed tool the policy
 * keeps generated calls away from: a case must not reach what the properties may not. An unlisted name is no tool.
 */
function forbiddenCall(s: Step, ctx: CheckContext): string | undefined {
  const messages = 'request' in s ? [{ method: s.request, params: s.params }] : 'raw' in s ? parsedLine(s.raw) : [];
  for (const m of messages) {
    const name = m.method === 'tools/call' && isObject(m.params) ? m.params.name : undefined;
    if (typeof name !== 'string') continue;
    const [skipped] = callableTools(
      ctx.profile.tools.filter((t) => t.name === name),
      ctx.toolCalls,
    ).skipped;
    if (skipped) return `tools/call ${skipped.tool} not made: ${skipped.reason}`;
  }
  return undefined;
}

/** The messages of a raw line (one, or a batch), or none when it is not JSON. */
function parsedLine(raw: string): { method?: unknown; params?: unknown }[] {
  try {
    const json: unknown = JSON.parse(raw);
    return (Array.isArray(json) ? json : [json]).filter(isObject);
  } catch {
    return [];
  }
}

/** Why the case's forEach has nothing to go through (its `requires` the run has checked already). */
function emptyForEach(c: Case, view: Record<string, unknown>): string | undefined {
  if (c.forEach && !Array.isArray(lookup(view, c.forEach.in))) return `the server profile has no list ${c.forEach.in}`;
  if (c.forEach && (lookup(view, c.forEach.in) as unknown[]).length === 0) return `the server has no ${c.forEach.in}`;
  return undefined;
}

async function openChannel(c: Case, ctx: CheckContext): Promise<Channel> {
  const kind = c.session ?? 'shared';
  if (kind === 'shared') return { request: (m, p, o) => ctx.request(m, p, o) };
  const session = kind === 'fresh' ? await ctx.ownSession() : await ctx.fresh();
  let recording = session.record();
  const takeStrays = () => {
    const seen = recording.stop();
    recording = session.record();
    return seen.filter((e) => e.kind === 'response' && !e.exchange && e.message);
  };
  return { request: (m, p, o) => session.request(m, p, o), session, takeStrays };
}

function describeItem(item: unknown): string {
  if (typeof item !== 'object' || item === null) return JSON.stringify(item);
  const o = item as Record<string, unknown>;
  return String(o.name ?? o.uri ?? o.uriTemplate ?? o.method ?? JSON.stringify(item).slice(0, 60));
}

/** Runs one step, its `{{ … }}` already resolved (matchers included). Undefined: nothing to judge. */
async function runStep(s: Step, c: Case, channel: Channel, ctx: CheckContext): Promise<Outcome | undefined> {
  const session = channel.session;
  if ('request' in s) {
    let reply: Reply;
    try {
      reply = await channel.request(s.request, s.params, { id: s.id, timeoutMs: s.timeoutMs });
    } catch (err) {
      // Silence is the case's to judge when it lists it; otherwise what was asked decides (docs/what-it-checks.md, "Decided cases").
      if (err instanceof RequestTimeout && s.outcomes?.some((o) => o.silence))
        return judge(s, c, undefined, `${s.request}: no response within ${err.ms} ms`, ctx);
      if (err instanceof RequestTimeout)
        return { ...timeoutVerdict(ctx.profile, err), expected: s.expect ?? 'a response', actual: 'no response' };
      if (err instanceof SessionClosed) return fail(err.message);
      throw err;
    }
    return judge(s, c, reply.message, s.request, ctx);
  }
  if (!session) throw new Error('the loader lets only requests run on the shared session');
  if ('notify' in s) {
    session.notify(s.notify, s.params);
    return undefined;
  }
  if ('raw' in s) {
    const { answers, alive } = await sendRaw(session, s, channel.takeStrays!);
    if (alive !== true)
      return fail('the server stopped answering after this line', {
        expected: 'a ping answer after the line',
        actual: s.raw,
        silent: alive.silent,
      });
    // An answer the frame checks set aside as this line's (an id null, or the line's own unusable id) is judged
    // here, once: its envelope, then what the case expects of it.
    const judged = answers.map(({ message, probe }) => {
      const fault = probe && message && probeAnswerFault(message, ctx.profile.revision);
      if (!fault) return judge(s, c, message, 'the line', ctx);
      const line = s.raw.length > 80 ? `${s.raw.slice(0, 80)}…` : s.raw;
      return fail(`the line ${line}: the answer is malformed: ${fault}`, {
        expected: 'an error response with id null',
        actual: message,
      });
    });
    return worstOf(judged)!;
  }
  if ('noResponse' in s) {
    await settle(s.noResponse.ms);
    recordWait(`a case's noResponse step (${c.id})`, s.noResponse.ms);
    const stray = channel.takeStrays!();
    if (stray.length > 0)
      return fail(`${stray.length} unexpected response(s)`, {
        expected: 'no response',
        actual: stray.map((e) => e.message),
      });
    return pass(`no response within ${s.noResponse.ms} ms`);
  }
  const alive = await isAlive(session);
  return alive === true
    ? pass('the server still answers ping')
    : fail('the server no longer answers ping', {
        expected: { result: {} },
        actual: 'no answer',
        silent: alive.silent,
      });
}

/**
 * Waits `ms`, then one turn of the event loop: after a long synchronous stretch (other checks starting) timers fire
 * before the pipe is read, and what had arrived in time must count (as in Session.request's timeout).
 */
const settle = (ms: number) => new Promise((resolve) => setTimeout(() => setImmediate(resolve), ms));

/**
 * Pings within --timeout, like any request that needs no work. A ping that timed out is returned as `silent`: when it
 * is answered later in the run after all, the server was late (loaded, or busy), not dead, and the failure warns.
 */
async function isAlive(session: Session): Promise<true | { silent?: Exchange[] }> {
  try {
    await session.request('ping');
    return true;
  } catch (err) {
    return { silent: err instanceof RequestTimeout && err.exchange ? [err.exchange] : undefined };
  }
}

/**
 * Sends a raw line; its answer is the response to its id (when it has one) or any error response that
 * answers nothing else. Silence means no answer by the time a following ping was answered.
 */
async function sendRaw(
  session: Session,
  s: RawStep,
  takeStrays: () => InboundEvent[],
): Promise<{ answers: { message?: Message; probe?: boolean }[]; alive: true | { silent?: Exchange[] } }> {
  takeStrays(); // earlier strays are not answers to this line
  const ids = s.id === undefined ? [] : Array.isArray(s.id) ? s.id : [s.id];
  const answered: (Reply | undefined)[] = [];
  if (ids.length === 0) session.sendRaw(s.raw + '\n');
  session.requestRaw(s.raw, ids, '(raw line)').forEach((p, i) =>
    p.then(
      (r) => (answered[i] = r),
      () => undefined,
    ),
  );
  const alive = await isAlive(session);
  if (alive === true) await settle(100); // an answer may trail the ping's
  // The line's own answer is one set aside as a probe's since it was sent (a result too: a request with id null answered
  // as a normal one), else the first error that answered nothing else.
  const strays = takeStrays();
  const found = strays.find((e) => e.probe !== undefined) ?? strays.find((e) => 'error' in e.message!);
  const stray = { message: found?.message, probe: found?.probe !== undefined };
  const answers =
    ids.length === 0 ? [stray] : ids.map((_, i) => (answered[i] ? { message: answered[i].message } : stray));
  return { answers, alive };
}

/** Applies expect, then outcomes in order, then otherwise. `message` undefined means no response came. */
function judge(s: Judged, c: Case, message: Message | undefined, what: string, ctx: CheckContext): Outcome {
  const revision = ctx.profile.revision;
  const actual =
    message === undefined ? 'no response' : 'error' in message ? { error: message.error } : { result: message.result };
  let miss: string | undefined = message === undefined ? 'no response' : undefined;
  if (message !== undefined && s.expect !== undefined) {
    miss = match(s.expect, message, revision);
    if (!miss) return pass(`${what}: as expected`);
  }
  for (const o of s.outcomes ?? []) {
    const applies = o.silence ? message === undefined : message !== undefined && !match(o.match, message, revision);
    if (applies)
      return {
        status: o.status,
        message: `${what}: ${o.note ?? (o.status === 'pass' ? 'an accepted answer' : 'as listed in the case')}`,
        expected: s.expect,
        actual,
      };
  }
  const status = s.otherwise ?? (c.requirement.level === 'MUST' ? 'fail' : 'warn');
  return { status, message: `${what}: ${miss ?? 'no outcome matched'}`, expected: s.expect, actual };
}

/** The case's verdict: the worst step outcome; its message says which item and step, or what passed. */
function combine(outcomes: Outcome[], items: number, over?: string): Outcome {
  const worst = worstOf(outcomes);
  if (!worst) return pass('nothing to check');
  const skips = outcomes.filter((o) => o.status === 'skip');
  if (worst.status === 'pass' || worst.status === 'skip') {
    if (skips.length > 0 && skips.length === outcomes.length) return skips[0];
    // Items left out (a tool the policy keeps calls away from) are named with the reason.
    const left = skips.length > 0 ? `; left out: ${skips.map((o) => o.message).join('; ')}` : '';
    return pass(over ? `${items - skips.length} ${over} checked${left}` : outcomes.map((o) => o.message).join('; '));
  }
  const bad = outcomes.filter((o) => o.status === worst.status);
  const more = bad.length > 1 ? ` (and ${bad.length - 1} more)` : '';
  // A failure for silence only when every failing step's is.
  const silent = bad.every((o) => o.silent) ? bad.flatMap((o) => o.silent!) : undefined;
  return { ...worst, message: worst.message + more, silent };
}
