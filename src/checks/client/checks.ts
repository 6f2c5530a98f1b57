// Requests the server sends (client/sampling, client/elicitation, client/roots): a session of its own declares the three
// capabilities, calls the tools the tool-call policy allows, and answers what the server asks (a fixed sampled text;
// elicitations declined, then accepted with values drawn from the requested schema; one temporary directory as root).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { initialize, schemaRevision, versionIn, walkList } from '../../discovery/discover.js';
import { isObject } from '../../json.js';
import { schemaArbitraries } from '../../generate/schema-arbitrary.js';
import { callableTools } from '../../generate/tool-policy.js';
import type { TranscriptEntry } from '../../schema/generated/report.js';
import { serverRequestDefinition, validate } from '../../schema/validators.js';
import {
  type Message,
  type Reply,
  type ServerRequestHandler,
  RequestTimeout,
  SessionClosed,
  type Session,
} from '../../session/session.js';
import { UNSUPPORTED, claimUnsupported } from '../kit/version-answer.js';
import { type CheckContext, type CheckDef, type Outcome, fail, pass, skip, warn, worst } from '../kit/check.js';
import { requirement } from '../kit/requirement.js';

/** Tools called again alone (to tell which one asked, and whether it took the answer), at most, beside those running at an elicitation. */
const MAX_SECOND_CALLS = 5;
/** Calls in flight at once in the first round. */
const PARALLEL = 4;
const SAMPLED = {
  role: 'assistant',
  content: { type: 'text', text: 'A fixed answer from the mcp-conformance test client.' },
  model: 'mcp-conformance',
  stopReason: 'endTurn',
};

/** What the client declares: elicitation from 2025-06-18 on, its URL mode from 2025-11-25 on. */
function capabilitiesFor(revision: string): Record<string, unknown> {
  const elicitation =
    revision >= '2025-11-25'
      ? { elicitation: { form: {}, url: {} } }
      : revision >= '2025-06-18'
        ? { elicitation: {} }
        : {};
  return { sampling: {}, ...elicitation, roots: { listChanged: false } };
}

/**
 * The rounds of tool calls: every tool, several at once (elicitations declined); then each tool that was running when
 * a request came, alone (declined again); then each of those that asked for an elicitation, alone (accepted).
 */
type Round = 'together' | 'alone' | 'accept';

/** One request the server sent, what the client answered, and the tool calls in flight then. */
interface Asked {
  message: Message;
  answer: unknown;
  round: Round;
  during: string[];
}

/** How a tool call ended. */
interface Call {
  tool: string;
  round: Round;
  ended: 'result' | 'error' | 'timeout' | 'lost';
  error?: unknown;
}

interface Probe {
  revision: string;
  asked: Asked[];
  calls: Call[];
  /** The tools called, and those left out with the reason (the policy's, a slow tool's, arguments that cannot be made). */
  called: string[];
  leftOut: string;
  transcript: TranscriptEntry[];
}

/** A valid value of `schema` from the run's seed, when one can be made. */
function valueOf(schema: unknown, seed: number): unknown {
  const made = schemaArbitraries(schema).valid;
  return made.ok ? fc.sample(made.arbitrary, { seed, numRuns: 1 })[0] : undefined;
}

/** The answer to one server request: elicitations are accepted in the `accept` round only. */
function answerFor(message: Message, round: Round, root: string, seed: number): ReturnType<ServerRequestHandler> {
  const params = isObject(message.params) ? message.params : {};
  switch (message.method) {
    case 'sampling/createMessage':
      return { result: SAMPLED };
    case 'roots/list':
      return { result: { roots: [{ uri: pathToFileURL(root).href, name: 'mcp-conformance scratch directory' }] } };
    case 'elicitation/create': {
      if (round !== 'accept') return { result: { action: 'decline' } };
      if (params.mode === 'url') return { result: { action: 'accept' } };
      const content = valueOf(params.requestedSchema, seed);
      return { result: isObject(content) ? { action: 'accept', content } : { action: 'cancel' } };
    }
    default:
      return undefined;
  }
}

/**
 * The probe's session, `setUp` before its initialize declaring `capabilities`, and the version the server answered
 * with (else the run's). It asks for the unsupported version first when `settle` says no version check has: a
 * counter-offer of the run's own version makes the session as good as one that asked for it, and spares those checks
 * a process; any other answer, or none, gets the probe a session of its own as before. Only the version is kept: the
 * probe's frame would hold the whole answer (megabytes, for some servers) while its calls run.
 */
async function probeSession(
  ctx: CheckContext,
  capabilities: Record<string, unknown>,
  setUp: (session: Session) => void,
  settle: ReturnType<typeof claimUnsupported>,
): Promise<{ session: Session; negotiated: string }> {
  const wanted = ctx.profile.protocolVersion;
  if (settle) {
    let reply: Reply | undefined;
    let session: Session | undefined;
    try {
      session = await ctx.fresh();
      setUp(session);
      reply = await initialize(session, UNSUPPORTED, capabilities).catch((err: unknown) => {
        if (err instanceof RequestTimeout || err instanceof SessionClosed) return undefined;
        throw err;
      });
      if (reply && versionIn(reply) === wanted) return { session, negotiated: wanted };
      await session.close();
    } finally {
      settle(reply, session);
    }
  }
  const session = await ctx.fresh();
  setUp(session);
  return { session, negotiated: versionIn(await initialize(session, wanted, capabilities)) ?? wanted };
}

/** Initializes `session` declaring the client capabilities, then calls the tools and answers what the server asks. */
async function probe(ctx: CheckContext): Promise<Probe> {
  // Claimed before the first await: the version checks start a moment after this one.
  const settle = claimUnsupported(ctx);
  const root = await mkdtemp(join(tmpdir(), 'mcp-conformance-root-')).catch((err: unknown) => {
    settle?.();
    throw err;
  });
  const asked: Asked[] = [];
  const ended: Call[] = [];
  const inFlight = new Set<string>();
  const left: { tool: string; reason: string }[] = [];
  const calls: { tool: string; arguments: unknown }[] = [];
  let round: Round = 'together';
  const capabilities = capabilitiesFor(ctx.profile.revision);
  const setUp = (session: Session) => {
    session.clientCapabilities = capabilities;
    session.serverRequestHandler = (message) => {
      const answer = answerFor(message, round, root, ctx.seed);
      asked.push({ message, answer, round, during: [...inFlight] });
      return answer;
    };
  };
  const opened = await probeSession(ctx, capabilities, setUp, settle).catch(async (err: unknown) => {
    await rm(root, { recursive: true, force: true });
    throw err;
  });
  const { session } = opened;
  try {
    session.revision = schemaRevision(opened.negotiated);
    session.notify('notifications/initialized');
    // A server may ask right after initialized (roots, for one): a round trip lets those requests come first.
    await session.request('ping').catch(() => undefined);
    // A server may offer the tools that ask only to a client that can answer: the list is this session's.
    const tools =
      ctx.profile.capabilities.tools === undefined
        ? []
        : (await walkList(session, 'tools/list', 'tools', 'name')).items;
    const { callable, skipped } = callableTools(tools, ctx.toolCalls);
    left.push(...skipped);
    for (const tool of callable) {
      const name = String(tool.name);
      const slow = ctx.slowTools.get(name);
      const args = slow ? undefined : valueOf(tool.inputSchema, ctx.seed);
      if (slow || !isObject(args)) left.push({ tool: name, reason: slow ?? 'no valid arguments can be made for it' });
      else calls.push({ tool: name, arguments: args });
    }
    const call = async (c: { tool: string; arguments: unknown }, r: Round) => {
      inFlight.add(c.tool);
      try {
        const reply = await session.request('tools/call', { name: c.tool, arguments: c.arguments });
        ended.push({
          tool: c.tool,
          round: r,
          ended: isObject(reply.message.result) ? 'result' : 'error',
          error: reply.message.error,
        });
      } catch (err) {
        if (!(err instanceof RequestTimeout || err instanceof SessionClosed)) throw err;
        ended.push({ tool: c.tool, round: r, ended: err instanceof RequestTimeout ? 'timeout' : 'lost' });
      } finally {
        inFlight.delete(c.tool);
      }
    };
    const queue = [...calls];
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        for (let c = queue.shift(); c; c = queue.shift()) await call(c, 'together');
      }),
    );
    // The tools that were running when a request came are called again alone: every one running at an elicitation
    // (which of them asked decides whose decline and accept are judged, so none is cut off by how the calls happened
    // to overlap), then those of the fewest suspects.
    const eliciting = asked.filter((a) => a.message.method === 'elicitation/create').flatMap((a) => a.during);
    const others = asked
      .filter((a) => a.message.method !== 'elicitation/create')
      .sort((a, b) => a.during.length - b.during.length)
      .flatMap((a) => a.during);
    const suspects = [...new Set([...eliciting, ...others])].slice(
      0,
      Math.max(MAX_SECOND_CALLS, new Set(eliciting).size),
    );
    for (const c of calls.filter((c) => suspects.includes(c.tool))) {
      round = 'alone';
      const before = asked.length;
      await call(c, round);
      if (!asked.slice(before).some((a) => a.message.method === 'elicitation/create')) continue;
      round = 'accept';
      await call(c, round);
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  const byReason = new Map<string, string[]>();
  for (const { tool, reason } of left) byReason.set(reason, [...(byReason.get(reason) ?? []), tool]);
  const leftOut = [...byReason].map(([reason, tools]) => `${tools.join(', ')} (${reason})`).join('; ');
  return {
    revision: session.revision ?? ctx.profile.revision,
    asked,
    calls: ended,
    called: calls.map((c) => c.tool),
    leftOut,
    transcript: session.transcript.entries,
  };
}

const probed = (ctx: CheckContext) => ctx.memo('client-requests', () => probe(ctx));

/** Skip when no request of `method` came, naming the tools called and those left out (a tool outside the policy may be the one that asks). */
function nothingAsked(p: Probe, method: string): Outcome {
  const called = p.called.length > 0 ? `tools called: ${p.called.join(', ')}` : 'no tool was called';
  return skip(
    `no ${method} request came in a session that declared the capability; ${called}${p.leftOut ? `; not called: ${p.leftOut}` : ''}`,
  );
}

/** Whether the server accepted the answer: the tool calls running when it was given ended with a result, not a JSON-RPC error. */
function refusedAnswers(p: Probe, asked: Asked[]): Outcome[] {
  return asked.flatMap((a) => {
    const failed = p.calls.filter((c) => c.round === a.round && a.during.includes(c.tool) && c.ended === 'error');
    // Only a call that was alone in flight can be blamed on the answer.
    if (a.during.length !== 1 || failed.length === 0) return [];
    return [
      warn(
        `${failed[0].tool} answered error ${JSON.stringify((failed[0].error as { code?: unknown } | undefined)?.code)} after the client's valid answer to ${String(a.message.method)}`,
        { expected: 'the tool call ends with a CallToolResult', actual: { answer: a.answer, error: failed[0].error } },
      ),
    ];
  });
}

/** Schema problems of a server request in the negotiated revision. */
function schemaOutcome(revision: string, a: Asked): Outcome | undefined {
  const def = serverRequestDefinition(revision, String(a.message.method));
  const shape = def
    ? validate(revision, def, a.message)
    : { ok: false as const, errors: [`${String(a.message.method)} is no server request in ${revision}`] };
  return shape.ok
    ? undefined
    : fail(
        `${String(a.message.method)} does not validate against ${def ?? 'the schema'} (${revision}): ${shape.errors[0]}`,
        { actual: { params: a.message.params, errors: shape.errors } },
      );
}

type Block = { type?: unknown; id?: unknown; toolUseId?: unknown };
const blocksOf = (content: unknown): Block[] =>
  (Array.isArray(content) ? content : [content]).filter(isObject) as Block[];

/** The tool-use rules of sampling messages (2025-11-25): tool results alone in a user message, each answering the tool uses before it. */
function toolUseProblem(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return undefined;
  let open: string[] = [];
  for (const [i, m] of messages.entries()) {
    const blocks = blocksOf(isObject(m) ? m.content : undefined);
    const results = blocks.filter((b) => b.type === 'tool_result');
    if (results.length > 0 && results.length < blocks.length)
      return `message ${i} mixes tool_result with other content`;
    const answered = results.map((b) => String(b.toolUseId));
    const stray = answered.find((id) => !open.includes(id));
    if (stray !== undefined)
      return `message ${i} has a tool_result for ${JSON.stringify(stray)}, which no tool_use just before it has`;
    const missing = open.find((id) => !answered.includes(id));
    if (missing !== undefined)
      return `the tool_use ${JSON.stringify(missing)} is not answered by a tool_result in message ${i}`;
    open = blocks.filter((b) => b.type === 'tool_use').map((b) => String(b.id));
  }
  return undefined;
}

/** The elicitation rules beyond the schema: a URL-mode request's url is a URL. */
function urlProblem(a: Asked): Outcome | undefined {
  const params = isObject(a.message.params) ? a.message.params : {};
  if (params.mode !== 'url') return undefined;
  return URL.canParse(String(params.url))
    ? undefined
    : fail(`a URL-mode elicitation's url is no valid URL: ${JSON.stringify(params.url)}`, {
        expected: 'a valid URL',
        actual: params.url,
      });
}

/** Field names and titles that look like secrets: a heuristic, so it warns. */
const SECRET = /pass(word|phrase)|api[ _-]?key|secret|token|credit[ _-]?card|card[ _-]?number|\bcvv\b|\bssn\b/i;

/** A form that seems to ask for a secret, which form mode must never do (client/elicitation#security-considerations). */
function secretProblem(a: Asked): Outcome | undefined {
  const params = isObject(a.message.params) ? a.message.params : {};
  const schema = isObject(params.requestedSchema) ? params.requestedSchema : {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  const hit = Object.entries(properties).find(
    ([name, p]) =>
      SECRET.test(name) || (isObject(p) && SECRET.test(`${String(p.title ?? '')} ${String(p.description ?? '')}`)),
  );
  return hit
    ? warn(
        `a form elicitation seems to ask for a secret (field ${JSON.stringify(hit[0])}): sensitive information is asked for through URL mode, never a form`,
        { expected: 'no passwords, API keys, tokens or card numbers in a form', actual: properties },
      )
    : undefined;
}

const PAGE = (p: string) => `client/${p}`;

/** The worst outcome, each message once (several requests often break the same rule). */
function judge(outcomes: Outcome[], passed: string, transcript: TranscriptEntry[]): Outcome {
  const seen = new Set<string>();
  const judged = worst(outcomes.filter((o) => o.status === 'pass' || (!seen.has(o.message) && seen.add(o.message))));
  return { ...judged, message: judged.status === 'pass' ? passed : judged.message, transcript };
}

export const CLIENT_REQUEST_CHECKS: CheckDef[] = [
  {
    id: 'client/sampling/create-message',
    title: "Sampling requests are valid, pair every tool use with its result, and take the client's answer",
    fresh: true,
    slowWork: true,
    requirement: requirement(
      's2c.sampling.tool-msgs',
      'MUST',
      PAGE('sampling'),
      'sampling/createMessage requests follow the schema; a user message with tool results holds only tool results, and every tool use is answered by a tool result with its id',
    ),
    covers: ['s2c.gates'],
    async run(ctx) {
      const p = await probed(ctx);
      const asked = p.asked.filter((a) => a.message.method === 'sampling/createMessage');
      if (asked.length === 0) return { ...nothingAsked(p, 'sampling/createMessage'), transcript: p.transcript };
      const outcomes = asked.map((a): Outcome => {
        const bad = schemaOutcome(p.revision, a);
        if (bad) return bad;
        const problem = toolUseProblem(isObject(a.message.params) ? a.message.params.messages : undefined);
        return problem
          ? fail(problem, {
              expected: 'tool results alone in a user message, each answering a tool use of the message before',
              actual: a.message.params,
            })
          : pass('valid');
      });
      return judge(
        [...outcomes, ...refusedAnswers(p, asked)],
        `${asked.length} sampling request(s), valid and answered`,
        p.transcript,
      );
    },
  },
  {
    id: 'client/elicitation/create',
    title:
      'Elicitation requests are valid (form: flat primitive fields; URL mode: a valid URL) and take a decline and an accept',
    fresh: true,
    slowWork: true,
    revisions: ['2025-06-18', '2025-11-25'],
    requirement: requirement(
      's2c.elicit.url-params',
      'MUST',
      PAGE('elicitation'),
      'elicitation/create requests follow the schema (a form asks for a flat object of primitive fields); a URL-mode request carries an elicitationId and a valid URL',
    ),
    covers: ['s2c.elicit.form-params', 'jsonschema.elicitation-subset', 's2c.elicit.no-secrets-form'],
    async run(ctx) {
      const p = await probed(ctx);
      const asked = p.asked.filter((a) => a.message.method === 'elicitation/create');
      if (asked.length === 0) return { ...nothingAsked(p, 'elicitation/create'), transcript: p.transcript };
      const outcomes = asked.map(
        (a) => schemaOutcome(p.revision, a) ?? urlProblem(a) ?? secretProblem(a) ?? pass('valid'),
      );
      const accepted = asked.filter((a) => a.round === 'accept').length;
      const told = `${asked.length} elicitation request(s), valid; ${asked.length - accepted} declined, ${accepted} accepted, and the server took each answer`;
      return judge([...outcomes, ...refusedAnswers(p, asked)], told, p.transcript);
    },
  },
  {
    id: 'client/roots/list',
    title: "roots/list requests are valid and take the client's roots",
    fresh: true,
    slowWork: true,
    requirement: requirement(
      's2c.roots',
      'MUST',
      PAGE('roots'),
      'roots/list requests follow the schema, and the server takes the roots the client lists',
    ),
    async run(ctx) {
      const p = await probed(ctx);
      const asked = p.asked.filter((a) => a.message.method === 'roots/list');
      if (asked.length === 0) return { ...nothingAsked(p, 'roots/list'), transcript: p.transcript };
      return judge(
        [...asked.map((a) => schemaOutcome(p.revision, a) ?? pass('valid')), ...refusedAnswers(p, asked)],
        `${asked.length} roots/list request(s), valid and answered`,
        p.transcript,
      );
    },
  },
];
