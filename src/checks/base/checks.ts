import { type CheckDef, describeReply, fail, pass, resultOf, warn } from '../kit/check.js';
import { requirement } from '../kit/requirement.js';

export const BASE_CHECKS: CheckDef[] = [
  {
    id: 'ping/respond',
    title: 'ping is answered with an empty result',
    requirement: requirement(
      'ping.respond',
      'MUST',
      'basic/utilities/ping#behavior-requirements',
      'The receiver of a ping responds promptly with an empty result',
    ),
    async run(ctx) {
      for (const params of [undefined, {}]) {
        const reply = await ctx.request('ping', params);
        const result = resultOf(reply);
        if (!result)
          return fail(`ping${params ? ' with params {}' : ''} was not answered with a result`, {
            expected: { result: {} },
            actual: describeReply(reply),
          });
        const extra = Object.keys(result).filter((k) => k !== '_meta');
        if (extra.length > 0)
          return warn(`ping result is not empty: ${extra.join(', ')}`, { expected: { result: {} }, actual: result });
      }
      return pass('ping answered with {}');
    },
  },
];
