// The checks of how a server treats a retry that is not the one it asked for (basic/patterns/mrtr): a tampered
// requestState, a missing, an unrequested or a malformed input response. Each judges every request that asked for
// input (askings): the probed tool and the prompts.
import { STATELESS_REVISION } from '../../schema/validators.js';
import type { Reply } from '../../session/session.js';
import {
  type CheckDef,
  type Outcome,
  describeReply,
  errorOf,
  expectCode,
  fail,
  pass,
  resultOf,
  skip,
  warn,
} from '../kit/check.js';
import { requirement } from '../kit/requirement.js';
import { type Asking, honestRetry, inputRequestsOf, judgeAskings } from './mrtr.js';

const only07 = [STATELESS_REVISION];
const MRTR_ERRORS = 'basic/patterns/mrtr#error-handling';

/** A requestState with its first character changed: what integrity protection must catch. */
const tampered = (state: string) => (state.startsWith('A') ? 'B' : 'A') + state.slice(1);
/** A key no server asks for. */
const UNREQUESTED = 'mcp-conformance-unrequested';
/** An input response no method's result schema accepts. */
const MALFORMED = 'mcp-conformance: not an input response';

/** What a reply says, without the requestState a server may mint afresh on every answer. */
const gist = (reply: Reply) => JSON.stringify(errorOf(reply) ?? { ...resultOf(reply), requestState: undefined });

/** The retry of `asking`'s first round with its requestState and `responses` in place of its answers. */
const retry = (asking: Asking, responses: Record<string, unknown>) =>
  asking.call({ inputResponses: responses, requestState: asking.first.requestState });

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
  {
    id: 'stateless/mrtr/missing-input',
    title: 'A retry missing a requested input response is asked for it again',
    requirement: requirement(
      '07.mrtr.missing-input',
      'SHOULD',
      MRTR_ERRORS,
      'A retry that lacks an input response the server needs gets a new InputRequiredResult asking for it again, not an error',
      STATELESS_REVISION,
    ),
    revisions: only07,
    run: (ctx) =>
      judgeAskings(ctx, async (asking, responses) => {
        const { what } = asking;
        const [key, ...others] = Object.keys(responses);
        if (key === undefined) return skip(`${what} asked for no input (only a requestState)`);
        const rest = Object.fromEntries(others.map((k) => [k, responses[k]]));
        const reply = await retry(asking, rest);
        const result = resultOf(reply);
        const expected = `an InputRequiredResult asking again for the ${key} input`;
        if (!result)
          return warn(`${what} refused a retry without the ${key} input response`, {
            expected,
            actual: describeReply(reply),
          });
        if (result.resultType !== 'input_required')
          return pass(`${what} completed without the ${key} input: it did not need it`);
        const method = inputRequestsOf(asking.first).find(([k]) => k === key)?.[1];
        if (!inputRequestsOf(result).some(([, m]) => m === method))
          return warn(`${what} asked for other input on a retry without the ${key} input, not for it again`, {
            expected,
            actual: describeReply(reply),
          });
        return pass(`${what} asked again for the ${key} input (${String(method)}) it was not given`);
      }),
  },
  {
    id: 'stateless/mrtr/extra-input',
    title: 'An unrequested input response in a retry is ignored',
    requirement: requirement(
      '07.mrtr.extra-input',
      'SHOULD',
      MRTR_ERRORS,
      'A server ignores input responses it did not ask for: a retry that carries one is answered as one without it',
      STATELESS_REVISION,
    ),
    revisions: only07,
    run: (ctx) =>
      judgeAskings(ctx, async (asking, responses) => {
        const { what } = asking;
        const honest = await honestRetry(ctx, asking, responses);
        if (!resultOf(honest))
          return skip(`${what}: the retry with input responses was refused (see stateless/mrtr/retry)`);
        const reply = await retry(asking, { ...responses, [UNREQUESTED]: { action: 'decline' } });
        if (resultOf(reply)) return pass(`${what} answered a retry with an unrequested ${UNREQUESTED} input response`);
        return warn(`${what} refused a retry for an input response it did not ask for (${UNREQUESTED})`, {
          expected: describeReply(honest),
          actual: describeReply(reply),
        });
      }),
  },
  {
    id: 'stateless/mrtr/malformed-input',
    title: 'A malformed input response is refused with -32602',
    requirement: requirement(
      '07.mrtr.malformed-input',
      'SHOULD',
      MRTR_ERRORS,
      'A server validates the input responses of a retry: one that is not a valid result for its request gets a JSON-RPC error (-32602)',
      STATELESS_REVISION,
    ),
    revisions: only07,
    run: (ctx) =>
      judgeAskings(ctx, async (asking, responses): Promise<Outcome> => {
        const { what } = asking;
        const [key] = Object.keys(responses);
        if (key === undefined) return skip(`${what} asked for no input (only a requestState)`);
        const reply = await retry(asking, { ...responses, [key]: MALFORMED });
        const doing = `${what} with a string for its ${key} input response`;
        if (!errorOf(reply))
          return warn(`${doing} was answered, not refused`, {
            expected: { error: { code: -32602 } },
            actual: describeReply(reply),
          });
        return expectCode(reply, -32602, doing, 'warn');
      }),
  },
];
