import type { Reply } from '../session/session.js';
import { type CheckContext, type CheckDef, type Outcome, describeReply, errorOf, fail, pass, requirement, resultOf, warn } from './check.js';

/** Ids of every JSON type and edge a client may use; the server must echo each unchanged. */
const PROBE_IDS = ['s-1', 0, 9007199254740991, -5, '123'];
const UNKNOWN_METHOD = 'conformance/does-not-exist';

/** Judges an error reply against the code the spec names; `other` is the verdict for any other error code. */
export function expectCode(reply: Reply, code: number, what: string, other: 'fail' | 'warn'): Outcome {
  const err = errorOf(reply);
  if (!err) return fail(`${what} succeeded`, { expected: { error: { code } }, actual: describeReply(reply) });
  if (err.code === code) return pass(`${what} → ${code}`);
  const verdict = other === 'fail' ? fail : warn;
  return verdict(`${what} → ${JSON.stringify(err.code)}, expected ${code}`, { expected: { error: { code } }, actual: describeReply(reply) });
}

/**
 * Sends one bad line to a fresh, initialized server, then pings it. `rawId` is the id the line
 * carries, when it has a readable one. Returns the server's answer to the line, if any.
 */
async function probeBadInput(ctx: CheckContext, line: string, rawId?: number): Promise<{ answer?: Reply; alive: boolean }> {
  const session = await ctx.fresh();
  await ctx.initialize(session, ctx.profile.protocolVersion);
  session.notify('notifications/initialized');
  const recording = session.record();
  let answered: Reply | undefined;
  const sent = rawId === undefined ? session.sendRaw(line + '\n') : undefined;
  if (rawId !== undefined) session.requestRaw(line, rawId, '(invalid request)', 5000).then((r) => (answered = r), () => undefined);
  let alive = true;
  try {
    await session.request('ping', undefined, { timeoutMs: Math.min(ctx.timeoutMs, 5000) });
    await new Promise((r) => setTimeout(r, 100)); // an answer to the bad line may trail the ping's
  } catch {
    alive = false;
  }
  // Only an error can answer a line whose id could not be read; a stray result is some other fault.
  const stray = recording.stop().find((e) => e.kind === 'response' && !e.exchange && e.message !== undefined && 'error' in e.message);
  const answer = answered ?? (stray?.message && sent ? { message: stray.message, entry: stray.line.entry, sent } : undefined);
  return { answer, alive };
}

export const BASE_CHECKS: CheckDef[] = [
  {
    id: 'ping/respond',
    title: 'ping is answered with an empty result',
    requirement: requirement('ping.respond', 'MUST', 'basic/utilities/ping#behavior-requirements', 'The receiver of a ping responds promptly with an empty result'),
    async run(ctx) {
      for (const params of [undefined, {}]) {
        const reply = await ctx.request('ping', params);
        const result = resultOf(reply);
        if (!result) return fail(`ping${params ? ' with params {}' : ''} was not answered with a result`, { expected: { result: {} }, actual: describeReply(reply) });
        const extra = Object.keys(result).filter((k) => k !== '_meta');
        if (extra.length > 0) return warn(`ping result is not empty: ${extra.join(', ')}`, { expected: { result: {} }, actual: result });
      }
      return pass('ping answered with {}');
    },
  },
  {
    id: 'base/method-not-found',
    title: 'An unknown method gets error -32601',
    requirement: requirement('base.method-not-found', 'MUST', 'basic#responses', 'A request for a method the server does not have gets the JSON-RPC error -32601 (Method not found)'),
    async run(ctx) {
      return expectCode(await ctx.request(UNKNOWN_METHOD, {}), -32601, UNKNOWN_METHOD, 'fail');
    },
  },
  {
    id: 'base/response/id-types',
    title: 'Request ids of every type are echoed unchanged',
    requirement: requirement('base.response.id-echo', 'MUST', 'basic#responses', 'A response carries the same id as its request, with the same JSON type, for string and integer ids alike'),
    async run(ctx) {
      const wrong: unknown[] = [];
      for (const id of PROBE_IDS) {
        const reply = await ctx.request('ping', undefined, { id });
        if (reply.looseId || reply.message.id !== id) wrong.push({ sent: id, received: reply.message.id });
      }
      if (wrong.length > 0) return fail(`${wrong.length} of ${PROBE_IDS.length} ids came back changed`, { expected: PROBE_IDS, actual: wrong });
      return pass(`ids ${PROBE_IDS.map((i) => JSON.stringify(i)).join(', ')} echoed with their types`);
    },
  },
  {
    id: 'base/notification/no-response',
    title: 'Notifications are never answered',
    requirement: requirement('base.notification.no-response', 'MUST', 'basic#notifications', 'The receiver of a notification does not send a response'),
    async run(ctx) {
      const session = await ctx.fresh();
      await ctx.initialize(session, ctx.profile.protocolVersion);
      const recording = session.record();
      session.notify('notifications/initialized');
      session.notify('notifications/x-conformance-unknown', { junk: [1, 2, 3] });
      session.notify('notifications/cancelled', { requestId: 'never-sent', reason: 'conformance probe' });
      await session.request('ping', undefined, { timeoutMs: 5000 });
      await new Promise((r) => setTimeout(r, 100));
      const stray = recording.stop().filter((e) => e.kind === 'response' && !e.exchange);
      if (stray.length > 0) return fail(`${stray.length} response(s) to notifications`, { expected: 'no response', actual: stray.map((e) => e.message) });
      return pass('three notifications (initialized, unknown, cancelled for an unknown id) went unanswered');
    },
  },
  {
    id: 'base/robustness/malformed-json',
    title: 'Malformed JSON gets -32700 or silence, and the server lives on',
    requirement: requirement('base.parse-error', 'MUST', 'basic#messages', 'Invalid JSON is a JSON-RPC parse error (-32700); it must not stop the server from serving the next request'),
    async run(ctx) {
      const { alive, answer } = await probeBadInput(ctx, '{"jsonrpc":"2.0","id":1,');
      if (!alive) return fail('the server stopped answering after a malformed JSON line', { expected: 'a ping answer after the bad line', actual: 'no answer' });
      if (!answer) return pass('the bad line was ignored (silence is what most SDKs do on stdio) and ping still works');
      return expectCode(answer, -32700, 'malformed JSON', 'warn');
    },
  },
  {
    id: 'base/robustness/invalid-request',
    title: 'A JSON value that is not a request gets -32600, and the server lives on',
    requirement: requirement('base.invalid-request', 'SHOULD', 'basic#requests', 'Valid JSON that is not a valid request is a JSON-RPC invalid request (-32600); the server keeps serving'),
    async run(ctx) {
      const { alive, answer } = await probeBadInput(ctx, '{"jsonrpc":"2.0","id":7}', 7);
      if (!alive) return fail('the server stopped answering after an invalid request', { expected: 'a ping answer after the bad request', actual: 'no answer' });
      if (!answer) return warn('the invalid request got no answer at all', { expected: { error: { code: -32600 } }, actual: 'silence' });
      return expectCode(answer, -32600, 'request without a method', 'warn');
    },
  },
];
