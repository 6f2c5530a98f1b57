// The MRTR probe of the stateless wire (2026-07-28): a tool or prompt that asks for client input, and the retries
// that answer it. Shared by the checks it serves.
import fc from 'fast-check';
import { callableTools } from '../../generate/tool-policy.js';
import { promptArgumentsSchema, schemaArbitraries } from '../../generate/schema-arbitrary.js';
import { STATELESS_REVISION } from '../../schema/validators.js';
import type { Reply } from '../../session/session.js';
import {
  type CheckContext,
  type Outcome,
  describeReply,
  errorOf,
  fail,
  pass,
  resultOf,
  skip,
  warn,
} from '../kit/check.js';
import { requirement } from '../kit/requirement.js';
import { isObject } from '../../json.js';
import { undeclaredCapability } from '../../skip-reason.js';

/** The only methods whose result may be an InputRequiredResult (basic/patterns/mrtr). */
export const MRTR_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);
/** The client capability each kind of input request needs. */
export const INPUT_CAPABILITY: Record<string, string> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};
/** What the suite answers to each kind of input request: a decline, an empty sample, no roots (all valid InputResponses). */
export const INPUT_ANSWER: Record<string, unknown> = {
  'elicitation/create': { action: 'decline' },
  'sampling/createMessage': {
    role: 'assistant',
    content: { type: 'text', text: 'mcp-conformance does not sample' },
    model: 'mcp-conformance',
  },
  'roots/list': { roots: [] },
};
/** Retries a check gives a request that keeps asking for input. */
const MAX_ROUNDS = 5;
export const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';

export const capabilitiesMeta = (caps: Record<string, unknown>) => ({ _meta: { [CLIENT_CAPABILITIES]: caps } });
/** The input requests of an InputRequiredResult, as [key, method] pairs. */
export const inputRequestsOf = (result: Record<string, unknown>): [string, unknown][] =>
  Object.entries(isObject(result.inputRequests) ? result.inputRequests : {}).map(([k, r]) => [
    k,
    isObject(r) ? r.method : undefined,
  ]);

/** A tool that needs client input: how it answered a call declaring no capabilities, and a call declaring those it named. */
interface InputProbe {
  tool: string;
  arguments: unknown;
  /** The answer to the call with no client capabilities. */
  bare: Reply;
  /** The capabilities the retry declared (data.requiredCapabilities of a -32021), and its answer. */
  caps: Record<string, unknown>;
  asked: Reply;
}

/** Tool calls inputProbe keeps in flight. */
const PROBE_AHEAD = 8;

/**
 * Calls each tool the policy allows once, with valid arguments and no client capabilities, until one needs a client
 * capability (-32021) or asks for input; then calls it again declaring what it required. Shared by the checks it serves.
 */
export function inputProbe(ctx: CheckContext): Promise<InputProbe | string> {
  return ctx.memo('stateless:input-probe', async () => {
    if (ctx.profile.capabilities.tools === undefined) return undeclaredCapability('tools');
    const { callable } = callableTools(ctx.profile.tools, ctx.toolCalls);
    const calls = callable.flatMap((tool) => {
      const valid = schemaArbitraries(tool.inputSchema).valid;
      return valid.ok
        ? [{ name: String(tool.name), args: fc.sample(valid.arbitrary, { numRuns: 1, seed: ctx.seed })[0] }]
        : [];
    });
    // A few calls go out ahead of the one judged, so that tools slow to fail do not wait on each other; they are still
    // judged in list order, as when sent one after the other.
    const sent: Promise<Reply>[] = [];
    for (const [i, { name, args }] of calls.entries()) {
      while (sent.length < Math.min(calls.length, i + PROBE_AHEAD)) {
        const call = calls[sent.length];
        const reply = ctx.request('tools/call', { name: call.name, arguments: call.args, ...capabilitiesMeta({}) });
        reply.catch(() => {}); // one not judged (an earlier tool answered the probe) may fail unheard
        sent.push(reply);
      }
      const bare = await sent[i];
      const data = errorOf(bare)?.data;
      if (errorOf(bare)?.code === -32021) {
        const caps = isObject(data) && isObject(data.requiredCapabilities) ? data.requiredCapabilities : {};
        return {
          tool: name,
          arguments: args,
          bare,
          caps,
          asked: await ctx.request('tools/call', { name, arguments: args, ...capabilitiesMeta(caps) }),
        };
      }
      if (resultOf(bare)?.resultType === 'input_required')
        return { tool: name, arguments: args, bare, caps: {}, asked: bare };
    }
    return `no tool the run may call (${callable.map((t) => t.name).join(', ') || 'none'}) needs a client capability or asks for input`;
  });
}

/** The answers to every input request of `result`, or the method the suite cannot answer. */
function answers(result: Record<string, unknown>): { responses: Record<string, unknown> } | { unknown: unknown } {
  const responses: Record<string, unknown> = {};
  for (const [key, method] of inputRequestsOf(result)) {
    if (typeof method !== 'string' || !(method in INPUT_ANSWER)) return { unknown: method };
    responses[key] = INPUT_ANSWER[method];
  }
  return { responses };
}

/** A requestState with its first character changed: what integrity protection must catch. */
const tampered = (state: string) => (state.startsWith('A') ? 'B' : 'A') + state.slice(1);

export const MRTR_RETRY = requirement(
  '07.mrtr',
  'MUST',
  'basic/patterns/mrtr',
  'A client retries a request that returned an InputRequiredResult with inputResponses and the requestState; the server completes it, and rejects a requestState that was tampered with',
  STATELESS_REVISION,
);

/**
 * Answers the input requests of `first` (what `what` returned) round after round through `call`, which repeats the
 * request with the extra params given, until the request completes; then retries the first round with a tampered
 * requestState, which must not complete.
 */
export async function retried(
  what: string,
  first: Record<string, unknown>,
  call: (extra: Record<string, unknown>) => Promise<Reply>,
): Promise<Outcome> {
  let result = first;
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const answered = answers(result);
    if ('unknown' in answered)
      return skip(`${what} asks for input of a kind the suite cannot give: ${JSON.stringify(answered.unknown)}`);
    const reply = await call({ inputResponses: answered.responses, requestState: result.requestState });
    const next = resultOf(reply);
    if (!next)
      return fail(`${what}: the retry with input responses was refused`, {
        expected: 'a complete result',
        actual: describeReply(reply),
      });
    if (next.resultType !== 'input_required') return tamper(round);
    result = next;
  }
  return fail(`${what} still asked for input after ${MAX_ROUNDS} retries`, {
    expected: 'a complete result',
    actual: result,
  });

  async function tamper(rounds: number): Promise<Outcome> {
    const done = `completed after ${rounds} retr${rounds === 1 ? 'y' : 'ies'}`;
    const state = first.requestState;
    if (typeof state !== 'string') return pass(`${what} ${done} (no requestState to tamper with)`);
    const answered = answers(first) as { responses: Record<string, unknown> };
    const reply = await call({ inputResponses: answered.responses, requestState: tampered(state) });
    // Integrity matters only when the state does: a SHOULD for a black box that cannot tell.
    if (resultOf(reply)?.resultType === 'complete')
      return warn(`${what} ${done}, and also completed with a tampered requestState`, {
        expected: 'an error for the altered requestState',
        actual: describeReply(reply),
      });
    return pass(`${what} ${done}; a tampered requestState was refused`);
  }
}

/** The client capabilities whose input requests the suite can answer (INPUT_ANSWER): a prompt probe declares them all. */
export const ANSWERABLE = Object.fromEntries(Object.values(INPUT_CAPABILITY).map((c) => [c, {}]));
/** Prompts a probe gets at most. */
const MAX_PROMPTS = 20;

/** A listed prompt that asked for input: the arguments it was got with and its InputRequiredResult. */
interface PromptProbe {
  prompt: string;
  arguments: unknown;
  asked: Record<string, unknown>;
}

/**
 * Gets each listed prompt once, with valid arguments, declaring every capability the suite can answer for: the prompts
 * that answer with an InputRequiredResult, or why there are none. Getting a listed prompt is safe.
 */
export function promptProbes(ctx: CheckContext): Promise<PromptProbe[] | string> {
  return ctx.memo('stateless:prompt-probes', async () => {
    const probes: PromptProbe[] = [];
    const got: string[] = [];
    for (const prompt of ctx.profile.prompts.slice(0, MAX_PROMPTS)) {
      const valid = schemaArbitraries(promptArgumentsSchema(prompt)).valid;
      if (!valid.ok) continue;
      const [args] = fc.sample(valid.arbitrary, { numRuns: 1, seed: ctx.seed });
      const name = String(prompt.name);
      const result = resultOf(
        await ctx.request('prompts/get', { name, arguments: args, ...capabilitiesMeta(ANSWERABLE) }),
      );
      got.push(name);
      if (result?.resultType === 'input_required') probes.push({ prompt: name, arguments: args, asked: result });
    }
    if (probes.length > 0) return probes;
    return `no listed prompt (${got.join(', ') || 'none got'}) asks for input when the client declares ${Object.keys(ANSWERABLE).join(', ')}`;
  });
}
