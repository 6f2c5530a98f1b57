import type { Reply } from '../session/session.js';
import { type CheckDef, type Outcome, describeReply, errorOf, fail, pass, requirement, resultOf, warn } from './check.js';

/** Judges an error reply against the code the spec names; `other` is the verdict for any other error code. */
export function expectCode(reply: Reply, code: number, what: string, other: 'fail' | 'warn'): Outcome {
  const err = errorOf(reply);
  if (!err) return fail(`${what} succeeded`, { expected: { error: { code } }, actual: describeReply(reply) });
  if (err.code === code) return pass(`${what} → ${code}`);
  const verdict = other === 'fail' ? fail : warn;
  // No code came when the transport made the error up: say what did (e.g. "HTTP 400 without a JSON-RPC response").
  const got = reply.synthetic ? String(err.message).split(':')[0] : JSON.stringify(err.code);
  return verdict(`${what} → ${got}, expected ${code}`, { expected: { error: { code } }, actual: describeReply(reply) });
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
];
