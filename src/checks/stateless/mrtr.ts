// The MRTR probe of the stateless wire (2026-07-28): a tool or prompt that asks for client input, and the retries
// that answer it. Shared by the checks it serves.
import fc from 'fast-check';
import { callableTools } from '../../generate/tool-policy.js';
import { promptArgumentsSchema, schemaArbitraries } from '../../generate/schema-arbitrary.js';
import { STATELESS_REVISION } from '../../schema/validators.js';
import { type Reply, RequestTimeout } from '../../session/session.js';
import {
  type CheckContext,
  type Outcome,
  describeReply,
  errorOf,
  fail,
  pass,
  resultOf,
  skip,
  worst,
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

const cannotAnswer = (what: string, method: unknown) =>
  skip(`${what} asks for input of a kind the suite cannot give: ${JSON.stringify(method)}`);

export const MRTR_RETRY = requirement(
  '07.mrtr',
  'MUST',
  'basic/patterns/mrtr',
  'A client retries a request that returned an InputRequiredResult with inputResponses and the requestState; the server completes it',
  STATELESS_REVISION,
);

/**
 * Answers the input requests of `first` (what `what` returned) round after round through `call`, which repeats the
 * request with the extra params given, until the request completes.
 */
export async function retried(
  what: string,
  first: Record<string, unknown>,
  call: (extra: Record<string, unknown>) => Promise<Reply>,
): Promise<Outcome> {
  let result = first;
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const answered = answers(result);
    if ('unknown' in answered) return cannotAnswer(what, answered.unknown);
    const reply = await call({ inputResponses: answered.responses, requestState: result.requestState });
    const next = resultOf(reply);
    if (!next)
      return fail(`${what}: the retry with input responses was refused`, {
        expected: 'a complete result',
        actual: describeReply(reply),
      });
    if (next.resultType !== 'input_required')
      return pass(`${what} completed after ${round} retr${round === 1 ? 'y' : 'ies'}`);
    result = next;
  }
  return fail(`${what} still asked for input after ${MAX_ROUNDS} retries`, {
    expected: 'a complete result',
    actual: result,
  });
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

/** A request that asked for input: what it returned first, and how to repeat it with extra params. */
export interface Asking {
  what: string;
  first: Record<string, unknown>;
  call: (extra: Record<string, unknown>) => Promise<Reply>;
}

/** Repeats the probed tool call with `extra` params, declaring the capabilities it required. */
export const toolCall = (ctx: CheckContext, probe: InputProbe) => (extra: Record<string, unknown>) =>
  ctx.request('tools/call', {
    name: probe.tool,
    arguments: probe.arguments,
    ...extra,
    ...capabilitiesMeta(probe.caps),
  });

/** The tool (inputProbe) and prompts (promptProbes) that asked for input, or why there are none. */
export function askings(ctx: CheckContext): Promise<Asking[] | string> {
  return ctx.memo('stateless:askings', async () => {
    const found: Asking[] = [];
    const why: string[] = [];
    const probe = await inputProbe(ctx);
    const first = typeof probe === 'string' ? undefined : resultOf(probe.asked);
    if (typeof probe === 'string') why.push(probe);
    else if (first?.resultType === 'input_required')
      found.push({ what: probe.tool, first, call: toolCall(ctx, probe) });
    else why.push(`${probe.tool} did not ask for input when its capabilities were declared (see stateless/mrtr/retry)`);
    // A prompt that went unanswered is stateless/mrtr/retry-prompt's finding (it owns the probe): one fault, one finding.
    const prompts =
      ctx.profile.capabilities.prompts === undefined
        ? undeclaredCapability('prompts')
        : await promptProbes(ctx).catch((err: unknown) => {
            if (!(err instanceof RequestTimeout)) throw err;
            return `the prompt probe had no answer to ${err.method} within --timeout (see stateless/mrtr/retry-prompt)`;
          });
    if (typeof prompts === 'string') why.push(prompts);
    else
      for (const { prompt, arguments: args, asked } of prompts)
        found.push({
          what: `prompt ${prompt}`,
          first: asked,
          call: (extra) =>
            ctx.request('prompts/get', { name: prompt, arguments: args, ...extra, ...capabilitiesMeta(ANSWERABLE) }),
        });
    return found.length > 0 ? found : why.join('; ');
  });
}

/** The retry of an asking's first round with every answer and its requestState, as a well-behaved client sends it. */
export function honestRetry(ctx: CheckContext, asking: Asking, responses: Record<string, unknown>): Promise<Reply> {
  return ctx.memo(`stateless:honest-retry:${asking.what}`, () =>
    asking.call({ inputResponses: responses, requestState: asking.first.requestState }),
  );
}

/** Judges every asking with `judge`: the worst outcome, or a skip when none could be judged. */
export async function judgeAskings(
  ctx: CheckContext,
  judge: (asking: Asking, responses: Record<string, unknown>) => Promise<Outcome>,
): Promise<Outcome> {
  const found = await askings(ctx);
  if (typeof found === 'string') return skip(found);
  const outcomes: Outcome[] = [];
  for (const asking of found) {
    const answered = answers(asking.first);
    outcomes.push(
      'unknown' in answered ? cannotAnswer(asking.what, answered.unknown) : await judge(asking, answered.responses),
    );
  }
  return outcomes.every((o) => o.status === 'skip') ? skip(outcomes.map((o) => o.message).join('; ')) : worst(outcomes);
}
