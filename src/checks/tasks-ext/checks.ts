// The Tasks extension (io.modelcontextprotocol/tasks, SEP-2663) on 2026-07-28: a client declares it in a request's
// capabilities, and the server may answer a tools/call with a task handle that the client polls (tasks/get), feeds
// with input (tasks/update) and cancels (tasks/cancel). Tested when the server advertises it in server/discover.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { schemaArbitraries } from '../../generate/schema-arbitrary.js';
import { callableTools } from '../../generate/tool-policy.js';
import { STATELESS_REVISION, validate } from '../../schema/validators.js';
import { type InboundEvent, type Reply, type RequestId, RequestTimeout } from '../../session/session.js';
import { isObject } from '../../json.js';
import { requirement } from '../kit/requirement.js';
import {
  type CheckContext,
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
  worst,
} from '../kit/check.js';
import { INPUT_ANSWER, capabilitiesMeta } from '../stateless/mrtr.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const SPEC = 'https://github.com/modelcontextprotocol/ext-tasks/blob/main/tasks.md';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
/** Tools the probe calls, at most. */
const MAX_TOOLS = 12;
/** A task is polled for this many response timeouts before the probe stops waiting for its end. */
const POLL_BUDGET = 3;
const WITH_EXTENSION = { extensions: { [TASKS_EXTENSION]: {} }, elicitation: {} };
/** The legacy (2025-11-25) tasks capability: on its own it does not declare the extension. */
const LEGACY_ONLY = { tasks: { requests: { tools: { call: {} } } }, elicitation: {} };
/** The legacy (2025-11-25) request parameter that asked for a task: the extension has no such signal. */
const LEGACY_TASK_PARAM = { task: { ttl: 60_000 } };
const NOTE = ' (--tool-calls all or --allow-tool NAME lets more tools be called)';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const unknownId = () => `nope-${randomUUID()}`;

/** A result that is a task handle or a task: a string taskId and a status. */
const taskLike = (r: Record<string, unknown> | undefined): r is Record<string, unknown> =>
  r !== undefined && typeof r.taskId === 'string' && typeof r.status === 'string';

/** One task the probe followed from its creation. */
interface Followed {
  tool: string;
  create: Reply;
  taskId: string;
  /** Every tasks/get, the first sent as soon as the task was returned. */
  gets: Reply[];
  /** tasks/update with only a key the server never issued, and with the answers to the outstanding requests. */
  strayUpdate?: Reply;
  updates: Reply[];
  /** Each input request key with every distinct request it named. */
  keys: Map<string, Set<string>>;
}

interface Probe {
  /** Why nothing could be probed. */
  none?: string;
  /** tools/call replies of a client that declared the extension. */
  calls: { tool: string; arguments: unknown; reply: Reply }[];
  tasks: Followed[];
  /** A task cancelled straight after its creation. */
  cancel?: Reply;
  /** A task that had ended, cancelled: its last tasks/get, the cancel's reply, and a tasks/get after it. */
  cancelEnded?: { tool: string; before: Record<string, unknown>; reply: Reply; after: Reply };
  /** The first task's tool called as a 2025-11-25 client would: the legacy tasks capability and `task` parameter only. */
  legacy?: { tool: string; reply: Reply };
  /** Requests of a client without the extension: the task methods on a real task, and a listen for its notifications. */
  gated: { what: string; reply: Reply | 'no answer' }[];
  /** The task methods on an unknown task id. */
  unknown: { method: string; reply: Reply }[];
}

const send = (
  ctx: CheckContext,
  method: string,
  params: Record<string, unknown>,
  caps: Record<string, unknown> = WITH_EXTENSION,
) => ctx.request(method, { ...params, ...capabilitiesMeta(caps) });

/** Answers the input requests of an input_required task (and first, once, sends a key it never issued). */
async function feed(
  ctx: CheckContext,
  t: Followed,
  result: Record<string, unknown>,
  answered: Set<string>,
): Promise<void> {
  const requests = isObject(result.inputRequests) ? result.inputRequests : {};
  const responses: Record<string, unknown> = {};
  for (const [key, request] of Object.entries(requests)) {
    const seen = t.keys.get(key) ?? new Set<string>();
    seen.add(JSON.stringify(request));
    t.keys.set(key, seen);
    const method = isObject(request) ? request.method : undefined;
    if (!answered.has(key))
      responses[key] = typeof method === 'string' && method in INPUT_ANSWER ? INPUT_ANSWER[method] : {};
  }
  if (Object.keys(responses).length === 0) return;
  t.strayUpdate ??= await send(ctx, 'tasks/update', {
    taskId: t.taskId,
    inputResponses: { [`mcp-conformance-${randomUUID()}`]: { action: 'decline' } },
  });
  t.updates.push(await send(ctx, 'tasks/update', { taskId: t.taskId, inputResponses: responses }));
  for (const key of Object.keys(responses)) answered.add(key);
}

/** Polls a task until it ends (answering what it asks), or until its time is up. */
async function follow(ctx: CheckContext, t: Followed): Promise<void> {
  const answered = new Set<string>();
  const until = Date.now() + ctx.timeoutMs * POLL_BUDGET;
  for (;;) {
    const reply = await send(ctx, 'tasks/get', { taskId: t.taskId });
    t.gets.push(reply);
    const r = resultOf(reply);
    if (!r || TERMINAL.has(String(r.status)) || Date.now() > until) return;
    if (r.status === 'input_required') await feed(ctx, t, r, answered);
    const interval = typeof r.pollIntervalMs === 'number' ? r.pollIntervalMs : 100;
    await sleep(Math.min(Math.max(interval, 50), 1000));
  }
}

/** Calls the tools the policy allows, declaring the extension; follows each task, then probes cancel, gating and unknown ids. */
function probe(ctx: CheckContext): Promise<Probe> {
  return ctx.memo('tasks-ext/probe', async () => {
    const p: Probe = { calls: [], tasks: [], gated: [], unknown: [] };
    const { callable } = callableTools(ctx.profile.tools, ctx.toolCalls);
    const calls = callable.slice(0, MAX_TOOLS).flatMap((tool) => {
      const valid = schemaArbitraries(tool.inputSchema).valid;
      return valid.ok
        ? [{ name: String(tool.name), arguments: fc.sample(valid.arbitrary, { numRuns: 1, seed: ctx.seed })[0] }]
        : [];
    });
    if (calls.length === 0)
      return { ...p, none: `no tool is callable under the tool-call policy with generated arguments${NOTE}` };
    for (const call of calls) {
      // A slow tool answers no task handle in time: it is left out.
      const reply = await send(ctx, 'tools/call', call).catch((e: unknown) =>
        e instanceof RequestTimeout ? undefined : Promise.reject(e),
      );
      if (!reply) continue;
      p.calls.push({ tool: call.name, arguments: call.arguments, reply });
      const r = resultOf(reply);
      if (taskLike(r))
        p.tasks.push({
          tool: call.name,
          create: reply,
          taskId: r.taskId as string,
          gets: [],
          updates: [],
          keys: new Map(),
        });
    }
    const first = p.tasks[0];
    if (!first)
      return {
        ...p,
        none: `no tool answered a call with a task (called: ${p.calls.map((c) => c.tool).join(', ')})${NOTE}`,
      };
    await Promise.all(p.tasks.map((t) => follow(ctx, t)));
    const ended = p.tasks.find((t) => TERMINAL.has(String(resultOf(t.gets.at(-1)!)?.status)));
    if (ended) {
      const reply = await send(ctx, 'tasks/cancel', { taskId: ended.taskId });
      p.cancelEnded = {
        tool: ended.tool,
        before: resultOf(ended.gets.at(-1)!)!,
        reply,
        after: await send(ctx, 'tasks/get', { taskId: ended.taskId }),
      };
    }
    const call = calls.find((c) => c.name === first.tool)!;
    const again = resultOf(await send(ctx, 'tools/call', call));
    if (taskLike(again)) p.cancel = await send(ctx, 'tasks/cancel', { taskId: again.taskId });
    p.legacy = {
      tool: call.name,
      reply: await send(ctx, 'tools/call', { ...call, ...LEGACY_TASK_PARAM }, LEGACY_ONLY),
    };
    for (const [method, params] of [
      ['tasks/get', {}],
      ['tasks/update', { inputResponses: {} }],
      ['tasks/cancel', {}],
    ] as const) {
      p.gated.push({ what: method, reply: await send(ctx, method, { taskId: first.taskId, ...params }, {}) });
    }
    // A server that accepts the listen holds its stream open: no answer in time is the finding.
    const listen = await send(ctx, 'subscriptions/listen', { notifications: { taskIds: [first.taskId] } }, {}).catch(
      (e: unknown) => (e instanceof RequestTimeout ? ('no answer' as const) : Promise.reject(e)),
    );
    p.gated.push({ what: 'subscriptions/listen for task notifications', reply: listen });
    for (const [method, params] of [
      ['tasks/get', {}],
      ['tasks/update', { inputResponses: {} }],
      ['tasks/cancel', {}],
    ] as const) {
      p.unknown.push({ method, reply: await send(ctx, method, { taskId: unknownId(), ...params }) });
    }
    return p;
  });
}

/** Whether the server advertises the extension in its server/discover capabilities. */
export function tasksAdvertised(ctx: CheckContext): boolean {
  const extensions = ctx.profile.capabilities.extensions;
  return isObject(extensions) && extensions[TASKS_EXTENSION] !== undefined;
}

/** Skips unless the server advertises the extension. */
function advertised(ctx: CheckContext): Outcome | undefined {
  return tasksAdvertised(ctx)
    ? undefined
    : skip(`the server does not advertise ${TASKS_EXTENSION} in its server/discover capabilities`);
}

async function withProbe(ctx: CheckContext, judge: (p: Probe) => Outcome): Promise<Outcome> {
  const off = advertised(ctx);
  if (off) return off;
  const p = await probe(ctx);
  return p.none ? skip(p.none) : judge(p);
}

/** An acknowledgement: a result with nothing but resultType "complete" (and _meta). */
function ackProblem(reply: Reply, what: string): Outcome | undefined {
  const r = resultOf(reply);
  if (!r)
    return fail(`${what} was not acknowledged`, {
      expected: { result: { resultType: 'complete' } },
      actual: describeReply(reply),
    });
  const extra = Object.keys(r).filter((k) => k !== '_meta' && k !== 'resultType');
  if (r.resultType !== 'complete' || extra.length > 0)
    return fail(`${what} was not acknowledged with an empty result`, {
      expected: { result: { resultType: 'complete' } },
      actual: describeReply(reply),
    });
  return undefined;
}

/** Messages a task's listen stream must not carry. */
const NOT_ON_TASK_STREAM = new Set(['notifications/progress', 'notifications/message']);

/**
 * On a session of its own, creates a task of the probe's first task tool, listens for its notifications (declaring the
 * extension) and follows it to its end; returns every notification the session got meanwhile, or why it could not.
 */
async function watchTaskStream(ctx: CheckContext, p: Probe): Promise<InboundEvent[] | string> {
  const session = await ctx.fresh();
  const seen: InboundEvent[] = [];
  session.onInbound((e) => void (e.kind === 'notification' && seen.push(e)));
  const tool = p.tasks[0].tool;
  const { arguments: args } = p.calls.find((c) => c.tool === tool)!;
  const created = resultOf(
    await session.request('tools/call', { name: tool, arguments: args, ...capabilitiesMeta(WITH_EXTENSION) }),
  );
  if (!taskLike(created)) return `${tool} did not answer a call on a new session with a task`;
  const id: RequestId = 'mcp-conformance-task-listen';
  // The stream stays open: its answer comes only when the server ends it.
  const listen = session.request(
    'subscriptions/listen',
    { notifications: { taskIds: [created.taskId] }, ...capabilitiesMeta(WITH_EXTENSION) },
    { id, timeoutMs: ctx.timeoutMs * POLL_BUDGET },
  );
  const refused = await Promise.race([
    listen.then(
      (r) => errorOf(r),
      () => undefined,
    ),
    sleep(50).then(() => undefined),
  ]);
  if (refused) return `subscriptions/listen for the task was refused: ${JSON.stringify(refused)}`;
  const until = Date.now() + ctx.timeoutMs * POLL_BUDGET;
  for (;;) {
    const r = resultOf(
      await session.request('tasks/get', { taskId: created.taskId, ...capabilitiesMeta(WITH_EXTENSION) }),
    );
    if (!r || TERMINAL.has(String(r.status)) || r.status === 'input_required' || Date.now() > until) break;
    await sleep(100);
  }
  return seen;
}

const EXT = TASKS_EXTENSION;
const REVISIONS = [STATELESS_REVISION];

export const TASK_EXTENSION_CHECKS: CheckDef[] = [
  {
    id: 'tasks-ext/create/result-type',
    revisions: REVISIONS,
    extension: EXT,
    slowWork: true,
    title: 'A task handle is a CreateTaskResult with resultType "task"',
    requirement: requirement(
      'tasksext.create.result-type',
      'MUST',
      `${SPEC}#polymorphic-results`,
      'A CreateTaskResult carries resultType "task" and the task (taskId, status, timestamps, ttlMs); no other result does',
    ),
    async run(ctx) {
      return withProbe(ctx, (p) => {
        for (const { tool, reply } of p.calls) {
          const r = resultOf(reply);
          if (!r) continue;
          if (taskLike(r) && r.resultType !== 'task')
            return fail(`tools/call of ${tool} answered a task with resultType ${JSON.stringify(r.resultType)}`, {
              expected: { resultType: 'task' },
              actual: describeReply(reply),
            });
          if (r.resultType === 'task') {
            const valid = validate(STATELESS_REVISION, 'CreateTaskResult', r);
            if (!valid.ok)
              return fail(`tools/call of ${tool} has resultType "task" but is no CreateTaskResult`, {
                expected: 'a CreateTaskResult',
                actual: valid.errors,
              });
          }
        }
        return pass(
          `${p.tasks.length} task(s) created (${[...new Set(p.tasks.map((t) => t.tool))].join(', ')}), each a CreateTaskResult`,
        );
      });
    },
  },
  {
    id: 'tasks-ext/create/durable',
    revisions: REVISIONS,
    extension: EXT,
    slowWork: true,
    title: 'A returned task is durable: a tasks/get sent at once finds it',
    requirement: requirement(
      'tasksext.create.durable',
      'MUST',
      `${SPEC}#task-creation`,
      'A CreateTaskResult is sent only once the task exists: a tasks/get for its taskId resolves',
    ),
    async run(ctx) {
      return withProbe(ctx, (p) => {
        for (const t of p.tasks) {
          const r = resultOf(t.gets[0]);
          if (!r || r.taskId !== t.taskId)
            return fail(`tasks/get sent as soon as ${t.tool}'s task was returned did not find it`, {
              expected: `the task ${t.taskId}`,
              actual: describeReply(t.gets[0]),
            });
        }
        return pass(`${p.tasks.length} task(s) found by a tasks/get sent at once`);
      });
    },
  },
  {
    id: 'tasks-ext/get/status',
    revisions: REVISIONS,
    extension: EXT,
    slowWork: true,
    title: 'tasks/get answers with resultType "complete" and what the status carries',
    requirement: requirement(
      'tasksext.get.status',
      'MUST',
      `${SPEC}#response`,
      'tasks/get returns the task with resultType "complete": input_required with its outstanding inputRequests, completed with its result, failed with its JSON-RPC error',
    ),
    covers: ['tasksext.get.result-type'],
    async run(ctx) {
      return withProbe(ctx, (p) => {
        const statuses = new Set<string>();
        for (const t of p.tasks) {
          for (const reply of t.gets) {
            const r = resultOf(reply);
            if (!r) continue; // an error: tasks-ext/create/durable judges the first, and a task may be purged later
            statuses.add(String(r.status));
            if (r.resultType !== 'complete')
              return fail(`tasks/get of ${t.tool}'s task has resultType ${JSON.stringify(r.resultType)}`, {
                expected: { resultType: 'complete' },
                actual: describeReply(reply),
              });
            const valid = validate(STATELESS_REVISION, 'GetTaskResult', r);
            if (!valid.ok)
              return fail(`tasks/get of ${t.tool}'s ${String(r.status)} task is no GetTaskResult`, {
                expected: 'the task with the fields its status carries',
                actual: valid.errors,
              });
          }
        }
        return pass(`tasks/get answered ${[...statuses].sort().join(', ')} task(s) with what each status carries`);
      });
    },
  },
  {
    id: 'tasks-ext/get/failed',
    revisions: REVISIONS,
    extension: EXT,
    slowWork: true,
    title: 'A failed task is a JSON-RPC error, never a tool result with isError',
    requirement: requirement(
      'tasksext.failed.protocol-only',
      'MUST',
      `${SPEC}#task-execution-errors`,
      'The failed status carries the JSON-RPC error the request ended with; a tool result with isError completes the task instead',
    ),
    async run(ctx) {
      return withProbe(ctx, (p) => {
        const failed = p.tasks.flatMap((t) =>
          t.gets
            .map(resultOf)
            .filter((r) => r?.status === 'failed')
            .map((r) => ({ t, r: r! })),
        );
        for (const { t, r } of failed) {
          if (isObject(r.result))
            return fail(`${t.tool}'s task failed with a result${r.result.isError === true ? ' with isError' : ''}`, {
              expected: 'status completed with the result (isError or not)',
              actual: r,
            });
          if (!isObject(r.error) || !Number.isInteger(r.error.code) || typeof r.error.message !== 'string')
            return fail(`${t.tool}'s failed task carries no JSON-RPC error`, {
              expected: { error: { code: 'an integer', message: 'a string' } },
              actual: r,
            });
        }
        if (failed.length === 0)
          return pass(`no task failed (${p.tasks.length} followed); none reported a tool error as failed`);
        return pass(`${failed.length} failed task response(s), each with its JSON-RPC error and no result`);
      });
    },
  },
  {
    id: 'tasks-ext/input/keys',
    revisions: REVISIONS,
    extension: EXT,
    slowWork: true,
    title: "An inputRequests key names one request over the task's life",
    requirement: requirement(
      'tasksext.input.keys',
      'MUST',
      `${SPEC}#task-update-requests`,
      "Each inputRequests key is unique over the task's life: never reused for another request",
    ),
    async run(ctx) {
      return withProbe(ctx, (p) => {
        const asking = p.tasks.filter((t) => t.keys.size > 0);
        if (asking.length === 0) return skip('no task asked for input (input_required)');
        for (const t of asking) {
          for (const [key, requests] of t.keys) {
            if (requests.size > 1)
              return fail(
                `${t.tool}'s task used the key ${JSON.stringify(key)} for ${requests.size} different requests`,
                { expected: 'one request per key', actual: [...requests].map((r) => JSON.parse(r) as unknown) },
              );
          }
        }
        return pass(`${asking.length} task(s) asked for input; each key named one request`);
      });
    },
  },
  {
    id: 'tasks-ext/update/ack',
    revisions: REVISIONS,
    extension: EXT,
    slowWork: true,
    title: 'tasks/update is acknowledged with an empty result',
    requirement: requirement(
      'tasksext.update.ack',
      'MUST',
      `${SPEC}#task-update-requests`,
      'A tasks/update is acknowledged with an empty result with resultType "complete"',
    ),
    async run(ctx) {
      return withProbe(ctx, (p) => {
        const fed = p.tasks.filter((t) => t.updates.length > 0);
        if (fed.length === 0)
          return skip('no task asked for input (input_required), so nothing was sent with tasks/update');
        for (const t of fed)
          for (const reply of t.updates) {
            const problem = ackProblem(reply, `tasks/update answering ${t.tool}'s task`);
            if (problem) return problem;
          }
        return pass(`${fed.reduce((n, t) => n + t.updates.length, 0)} tasks/update acknowledged`);
      });
    },
  },
  {
    id: 'tasks-ext/update/ignore',
    revisions: REVISIONS,
    extension: EXT,
    slowWork: true,
    title: 'A tasks/update answering a key the task never issued is ignored',
    requirement: requirement(
      'tasksext.update.ignore',
      'SHOULD',
      `${SPEC}#task-update-requests`,
      'A server ignores inputResponses mapped to a key that is not outstanding: such a tasks/update is acknowledged',
    ),
    async run(ctx) {
      return withProbe(ctx, (p) => {
        // "A server SHOULD ignore any inputResponses responses mapped to a key that is not currently outstanding."
        const sent = p.tasks.filter((t) => t.strayUpdate);
        if (sent.length === 0)
          return skip(
            'no task asked for input (input_required), so no tasks/update was sent with a key it never issued',
          );
        const stray = sent.find((t) => ackProblem(t.strayUpdate!, ''));
        if (stray)
          return warn(`tasks/update with only a key ${stray.tool}'s task never issued was not ignored`, {
            expected: { result: { resultType: 'complete' } },
            actual: describeReply(stray.strayUpdate!),
          });
        return pass(`${sent.length} tasks/update with a key never issued acknowledged and ignored`);
      });
    },
  },
  {
    id: 'tasks-ext/cancel/ack',
    revisions: REVISIONS,
    extension: EXT,
    slowWork: true,
    title: 'tasks/cancel is acknowledged with an empty result',
    requirement: requirement(
      'tasksext.cancel.ack',
      'MUST',
      `${SPEC}#task-cancellation`,
      'A tasks/cancel is acknowledged with an empty result with resultType "complete" (the task may end otherwise)',
    ),
    async run(ctx) {
      return withProbe(ctx, (p) => {
        if (!p.cancel) return skip(`${p.tasks[0].tool} did not answer a second call with a task`);
        return (
          ackProblem(p.cancel, `tasks/cancel of a new ${p.tasks[0].tool} task`) ??
          pass('tasks/cancel of a new task was acknowledged')
        );
      });
    },
  },
  {
    id: 'tasks-ext/cancel/ended',
    revisions: REVISIONS,
    extension: EXT,
    slowWork: true,
    title: 'tasks/cancel of a task that has ended is acknowledged, and the task keeps its end',
    requirement: requirement(
      'tasksext.cancel.ended',
      'MUST',
      `${SPEC}#task-cancellation`,
      'A tasks/cancel of a task that already ended is acknowledged with an empty result (the 2025-11-25 -32602 is gone), and the task stays as it ended',
    ),
    async run(ctx) {
      return withProbe(ctx, (p) => {
        if (!p.cancelEnded) return skip(`no task ended within ${POLL_BUDGET} response timeouts of polling`);
        const { tool, before, reply, after } = p.cancelEnded;
        const what = `tasks/cancel of ${tool}'s ${String(before.status)} task`;
        const problem = ackProblem(reply, what);
        if (problem) return problem;
        // Cancelling only signals intent: work that finished stays finished, with its result or error.
        const now = resultOf(after);
        if (!now) return pass(`${what} was acknowledged; the task was gone after it (no sentence keeps it)`);
        const kept = (r: Record<string, unknown>) => JSON.stringify([r.status, r.result, r.error]);
        if (kept(now) !== kept(before))
          return fail(`${what} was acknowledged, but the task no longer reads as it ended`, {
            expected: { status: before.status, result: before.result, error: before.error },
            actual: describeReply(after),
          });
        return pass(`${what} was acknowledged; the task is still ${String(before.status)}`);
      });
    },
  },
  {
    id: 'tasks-ext/unknown-id',
    revisions: REVISIONS,
    extension: EXT,
    slowWork: true,
    title: 'tasks/get of an unknown task gets -32602 (tasks/update and tasks/cancel should too)',
    requirement: requirement(
      'tasksext.unknown-id',
      'MUST',
      `${SPEC}#protocol-errors`,
      'tasks/get naming no task is answered with -32602; tasks/update and tasks/cancel should be too',
    ),
    async run(ctx) {
      return withProbe(ctx, (p) =>
        worst(
          p.unknown.map(({ method, reply }) =>
            method === 'tasks/get' || errorOf(reply)
              ? expectCode(reply, -32602, `${method} with an unknown taskId`, method === 'tasks/get' ? 'fail' : 'warn')
              : warn(`${method} with an unknown taskId succeeded`, {
                  expected: { error: { code: -32602 } },
                  actual: describeReply(reply),
                }),
          ),
        ),
      );
    },
  },
  {
    id: 'tasks-ext/capability/create',
    revisions: REVISIONS,
    extension: EXT,
    slowWork: true,
    title:
      'A client that does not declare the extension never gets a task (the legacy tasks capability and task parameter do not declare it)',
    requirement: requirement(
      'tasksext.nocap.create',
      'MUST',
      `${SPEC}#capability-negotiation`,
      'A request without the extension in its capabilities never gets a CreateTaskResult; a server that cannot serve it otherwise answers -32021 naming the extension',
    ),
    async run(ctx) {
      return withProbe(ctx, (p) => {
        const { tool, reply } = p.legacy!;
        const what = `tools/call of ${tool} by a client with only the legacy tasks capability and task parameter`;
        const r = resultOf(reply);
        // A task in either shape: the extension's handle, or the 2025-11-25 { task } one.
        if (r)
          return r.resultType === 'task' || (isObject(r.task) && taskLike(r.task)) || taskLike(r)
            ? fail(`${what} got a task`, { expected: "the tool's result, or -32021", actual: describeReply(reply) })
            : pass(`${what} got its result`);
        const err = errorOf(reply)!;
        const data = isObject(err.data) ? err.data : {};
        const named =
          isObject(data.requiredCapabilities) &&
          isObject(data.requiredCapabilities.extensions) &&
          data.requiredCapabilities.extensions[TASKS_EXTENSION] !== undefined;
        if (err.code === -32021)
          return named
            ? pass(`${what} → -32021 naming ${TASKS_EXTENSION}`)
            : fail(`${what} → -32021 without ${TASKS_EXTENSION} in data.requiredCapabilities.extensions`, {
                expected: { data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } },
                actual: err,
              });
        return warn(
          `${what} → ${JSON.stringify(err.code)}, though it succeeds for a client that declares the extension`,
          { expected: "the tool's result, or -32021", actual: describeReply(reply) },
        );
      });
    },
  },
  {
    id: 'tasks-ext/capability/methods',
    revisions: REVISIONS,
    extension: EXT,
    slowWork: true,
    title: 'tasks/get, tasks/update, tasks/cancel and task notifications need the extension: -32021 otherwise',
    requirement: requirement(
      'tasksext.nocap.methods',
      'MUST',
      `${SPEC}#protocol-errors`,
      'A client that does not declare the extension gets -32021 for tasks/get, tasks/update, tasks/cancel and for task notifications on subscriptions/listen',
    ),
    async run(ctx) {
      return withProbe(ctx, (p) =>
        worst(
          p.gated.map(({ what, reply }) =>
            reply === 'no answer'
              ? fail(
                  `${what} without the extension was not refused: no answer within ${ctx.timeoutMs / 1000} s (a stream held open)`,
                  { expected: { error: { code: -32021 } }, actual: reply },
                )
              : expectCode(reply, -32021, `${what} without the extension`, 'fail'),
          ),
        ),
      );
    },
  },
  {
    id: 'tasks-ext/listen/no-progress',
    revisions: REVISIONS,
    extension: EXT,
    slowWork: true,
    fresh: true,
    title: "A task's subscriptions/listen stream carries no progress or log notifications",
    requirement: requirement(
      'tasksext.listen.no-progress',
      'MUST',
      `${SPEC}#task-status-notifications`,
      'notifications/progress and notifications/message are never sent on the subscriptions/listen stream of a task',
    ),
    async run(ctx) {
      const off = advertised(ctx);
      if (off) return off;
      const p = await probe(ctx);
      if (p.none) return skip(p.none);
      const watched = await watchTaskStream(ctx, p);
      if (typeof watched === 'string') return skip(watched);
      // The session asked for no progress (no progressToken) and no log level: any such message is the stream's.
      const bad = watched.filter((e) => NOT_ON_TASK_STREAM.has(String(e.message?.method)));
      if (bad.length > 0)
        return fail(
          `${bad.length} ${String(bad[0].message?.method)} notification(s) while listening for a task's notifications`,
          {
            expected: 'only notifications/tasks (and the acknowledgement)',
            actual: bad.slice(0, 3).map((e) => e.message),
          },
        );
      return pass("listened to a task's notifications until it ended: no progress or log notification came");
    },
  },
];
