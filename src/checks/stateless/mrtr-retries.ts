// The checks of how a server treats a retry that is not the one it asked for (basic/patterns/mrtr): a tampered
// requestState. Each judges every request that asked for input (askings): the probed tool and the prompts.
import { STATELESS_REVISION } from '../../schema/validators.js';
import type { Reply } from '../../session/session.js';
import { type CheckDef, describeReply, errorOf, fail, pass, resultOf, skip, warn } from '../kit/check.js';
import { requirement } from '../kit/requirement.js';
import { honestRetry, judgeAskings } from './mrtr.js';

const only07 = [STATELESS_REVISION];

/** A requestState with its first character changed: what integrity protection must catch. */
const tampered = (state: string) => (state.startsWith('A') ? 'B' : 'A') + state.slice(1);
/** What a reply says, without the requestState a server may mint afresh on every answer. */
const gist = (reply: Reply) => JSON.stringify(errorOf(reply) ?? { ...resultOf(reply), requestState: undefined });

export const MRTR_RETRY_CHECKS: CheckDef[] = [
  {
    id: 'stateless/mrtr/tampered-state',
    title: 'A retry with a tampered requestState is rejected, not acted on',
    requirement: requirement(
      '07.mrtr.state-integrity',
      'MUST',
      'basic/patterns/mrtr#server-requirements-basic-workflow',
      'A server rejects a requestState that fails verification: a tampered one must not change what the request does',
      STATELESS_REVISION,
    ),
    revisions: only07,
    run: (ctx) =>
      judgeAskings(ctx, async (asking, responses) => {
        const { what } = asking;
        const state = asking.first.requestState;
        if (typeof state !== 'string') return skip(`${what} gave no requestState to tamper with`);
        const honest = await honestRetry(ctx, asking, responses);
        if (!resultOf(honest))
          return skip(`${what}: the retry with the untouched requestState was refused (see stateless/mrtr/retry)`);
        const reply = await asking.call({ inputResponses: responses, requestState: tampered(state) });
        const result = resultOf(reply);
        if (!result)
          return pass(`${what}: a tampered requestState was refused (${JSON.stringify(errorOf(reply)?.code)})`);
        const actual = { untouched: describeReply(honest), tampered: describeReply(reply) };
        if (gist(reply) === gist(honest))
          // Integrity may be left out where the state drives nothing: from outside, accepting it proves no harm.
          return warn(`${what} answered a tampered requestState as it answered the untouched one`, {
            expected: 'an error for the altered requestState',
            actual,
          });
        if (result.resultType === 'input_required')
          return pass(`${what} asked for its input again on a tampered requestState, not acting on it`);
        // Another answer: the state drove it unverified, unless the untouched state gets another answer too.
        const again = await asking.call({ inputResponses: responses, requestState: state });
        if (gist(again) !== gist(honest))
          return skip(
            `${what} answers the same retry differently each time: a tampered requestState cannot be told apart`,
          );
        return fail(`${what} acted on a tampered requestState: it completed with another answer`, {
          expected: 'an error for the altered requestState',
          actual,
        });
      }),
  },
];
