// Tasks (2025-11-25, experimental): basic/utilities/tasks. Tested only when the server declares the tasks capability.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { schemaArbitraries } from '../../generate/schema-arbitrary.js';
import { callableTools } from '../../generate/tool-policy.js';
import { validate, shapeBroken } from '../../schema/validators.js';
import { type Reply, RequestTimeout } from '../../session/session.js';
import { isObject } from '../../json.js';
import { undeclaredCapability } from '../../skip-reason.js';
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
import { requirement } from '../kit/requirement.js';

const REVISION = '2025-11-25';
const REVISIONS = [REVISION] as const;
const PAGE = 'basic/utilities/tasks';
const RELATED = 'io.modelcontextprotocol/related-task';
const TERMINAL = ['completed', 'failed', 'cancelled'];
const MAX_PAGES = 50;
/** tasks/result waits for the task to end: it gets this many response timeouts. */
const RESULT_WAIT = 3;
const NOTE = ' (--tool-calls all or --allow-tool NAME lets more tools be called)';

type Capability = { list?: unknown; cancel?: unknown; requests?: { tools?: { call?: unknown } } };
const capabilityOf = (ctx: CheckContext): Capability | undefined => {
  const tasks = ctx.profile.capabilities.tasks;
  return isObject(tasks) ? (tasks as Capability) : undefined;
};

/** What every tasks check but one requires: the tasks capability. */
const TASKS = { capabilities: ['tasks'] };

/** Skip unless the server declares the named feature of its tasks (the check's `requires` saw the capability). */
function needs(ctx: CheckContext, feature?: 'list' | 'cancel'): Outcome | undefined {
  if (feature && capabilityOf(ctx)?.[feature] === undefined)
    return skip(`the server does not declare tasks.${feature}`);
  return undefined;
}

const unknownId = () => `nope-${randomUUID()}`;

/** A tool among those `want` picks that the policy lets the run call (`asTask`: as a task), with valid arguments drawn from the run's seed. */
function callableTool(
  ctx: CheckContext,
  want: (support: unknown) => boolean,
  asTask: boolean,
): { name: string; arguments: unknown } | undefined {
  const fits = ctx.profile.tools.filter((t) =>
    want((t.execution as { taskSupport?: unknown } | undefined)?.taskSupport),
  );
  for (const tool of callableTools(fits, ctx.toolCalls, asTask).callable) {
    const valid = schemaArbitraries(tool.inputSchema).valid;
    if (valid.ok)
      return { name: String(tool.name), arguments: fc.sample(valid.arbitrary, { seed: ctx.seed, numRuns: 1 })[0] };
  }
  return undefined;
}

/** The Task a reply carries (a tasks/get or tasks/cancel result is one; a CreateTaskResult holds one). */
function taskIn(reply: Reply | undefined): Record<string, unknown> | undefined {
  const r = reply && resultOf(reply);
  return r && isObject(r.task) ? r.task : r && typeof r.taskId === 'string' ? r : undefined;
}

/** What one run of the task lifecycle saw; several checks judge it. */
interface Probe {
  /** Why there was no task to look at. */
  none?: string;
  tool: string;
  creates: Reply[];
  /** tasks/get on the first task before, and after, its tasks/result. */
  before?: Reply;
  result?: Reply;
  after?: Reply;
  /** tasks/list pages, and what stopped the walk early. */
  pages: Reply[];
  listProblem?: string;
  /** tasks/cancel on the finished first task. */
  cancelDone?: Reply;
  /** tasks/cancel on the second task straight after its creation, then tasks/get on it. */
  cancelWorking?: Reply;
  afterCancel?: Reply;
}

/** Creates two tasks on a callable tool that supports them, then gets, results, lists and cancels them. */
function probe(ctx: CheckContext): Promise<Probe> {
  return ctx.memo('tasks/lifecycle', async () => {
    const tasks = capabilityOf(ctx);
    const empty = { tool: '', creates: [], pages: [] };
    if (tasks?.requests?.tools?.call === undefined)
      return { ...empty, none: 'the server does not declare tasks.requests.tools.call' };
    const tool = callableTool(ctx, (s) => s === 'optional' || s === 'required', true);
    if (!tool)
      return {
        ...empty,
        none: `no tool with execution.taskSupport optional or required is callable under the tool-call policy with generated arguments${NOTE}`,
      };
    const create = () => ctx.request('tools/call', { ...tool, task: { ttl: 60_000 } });
    const p: Probe = { tool: tool.name, creates: [await create(), await create()], pages: [] };
    const [first, second] = p.creates.map((c) => taskIn(c)?.taskId);
    if (typeof second === 'string' && tasks.cancel !== undefined) {
      p.cancelWorking = await ctx.request('tasks/cancel', { taskId: second });
      p.afterCancel = await ctx.request('tasks/get', { taskId: second });
    }
    if (typeof first !== 'string') return p;
    p.before = await ctx.request('tasks/get', { taskId: first });
    // A task may outlast the run's response timeout: tasks/result then has no verdict to give.
    p.result = await ctx
      .request('tasks/result', { taskId: first }, { timeoutMs: ctx.timeoutMs * RESULT_WAIT })
      .catch((e: unknown) => {
        if (e instanceof RequestTimeout) return undefined;
        throw e;
      });
    p.after = await ctx.request('tasks/get', { taskId: first });
    if (tasks.list !== undefined) {
      let cursor: string | undefined;
      do {
        const page = await ctx.request('tasks/list', cursor === undefined ? {} : { cursor });
        p.pages.push(page);
        const r = resultOf(page);
        if (!r || !Array.isArray(r.tasks)) {
          p.listProblem = 'a tasks/list page is not a ListTasksResult';
          break;
        }
        cursor = typeof r.nextCursor === 'string' ? r.nextCursor : undefined;
        if (cursor !== undefined && p.pages.length >= MAX_PAGES)
          p.listProblem = `tasks/list still had a nextCursor after ${MAX_PAGES} pages`;
      } while (cursor !== undefined && !p.listProblem);
    }
    if (tasks.cancel !== undefined && TERMINAL.includes(String(taskIn(p.after)?.status)))
      p.cancelDone = await ctx.request('tasks/cancel', { taskId: first });
    return p;
  });
}

/** Runs `judge` on the probe, or skips when no task could be created. */
async function withProbe(
  ctx: CheckContext,
  judge: (p: Probe) => Outcome,
  feature?: 'list' | 'cancel',
): Promise<Outcome> {
  const none = needs(ctx, feature);
  if (none) return none;
  const p = await probe(ctx);
  if (p.none) return skip(p.none);
  if (!taskIn(p.creates[0]))
    return skip(`tools/call of ${p.tool} as a task did not create one (see tasks/create/result)`);
  return judge(p);
}

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const timestampProblem = (task: Record<string, unknown>): string | undefined =>
  ['createdAt', 'lastUpdatedAt']
    .map((k) =>
      typeof task[k] === 'string' && ISO_8601.test(task[k]) && !Number.isNaN(Date.parse(task[k]))
        ? undefined
        : `${k} ${JSON.stringify(task[k])}`,
    )
    .find(Boolean);

/** Whether a task may go from status `from` to `to` (Task Status Lifecycle). */
const allowed = (from: unknown, to: unknown) =>
  from === to || from === 'working' || (from === 'input_required' && to !== 'input_required');

export const TASK_CHECKS: CheckDef[] = [
  {
    id: 'tasks/unknown-id',
    revisions: REVISIONS,
    title: 'tasks/get, tasks/result and tasks/cancel with an unknown taskId get error -32602',
    requirement: requirement(
      'tasks.get.unknown',
      'MUST',
      `${PAGE}#error-handling`,
      'A request naming a task that does not exist is answered with -32602 (Invalid params)',
    ),
    covers: ['tasks.result.unknown', 'tasks.cancel.unknown'],
    requires: TASKS,
    async run(ctx) {
      const methods = [
        'tasks/get',
        'tasks/result',
        ...(capabilityOf(ctx)?.cancel !== undefined ? ['tasks/cancel'] : []),
      ];
      const outcomes: Outcome[] = [];
      for (const method of methods)
        outcomes.push(
          expectCode(
            await ctx.request(method, { taskId: unknownId() }),
            -32602,
            `${method} with an unknown taskId`,
            'fail',
          ),
        );
      return worst(outcomes);
    },
  },
  {
    id: 'tasks/list/invalid-cursor',
    revisions: REVISIONS,
    title: 'tasks/list with an invalid cursor gets error -32602',
    requirement: requirement(
      'tasks.list.cursor',
      'MUST',
      `${PAGE}#error-handling`,
      'tasks/list with an invalid or unknown cursor is answered with -32602 (Invalid params)',
    ),
    requires: TASKS,
    async run(ctx) {
      return (
        needs(ctx, 'list') ??
        expectCode(
          await ctx.request('tasks/list', { cursor: unknownId() }),
          -32602,
          'tasks/list with an invalid cursor',
          'fail',
        )
      );
    },
  },
  {
    id: 'tasks/create/result',
    revisions: REVISIONS,
    title: 'A task-augmented tools/call returns a new working task with a unique id',
    requirement: requirement(
      'tasks.create.result',
      'MUST',
      `${PAGE}#creating-tasks`,
      'A task-augmented request is answered with a CreateTaskResult whose task begins in the working status, with a unique string taskId',
    ),
    covers: ['tasks.initial-status', 'tasks.id'],
    requires: TASKS,
    async run(ctx) {
      const p = await probe(ctx);
      if (p.none) return skip(p.none);
      const ids: unknown[] = [];
      for (const reply of p.creates) {
        const r = resultOf(reply);
        const valid = r ? validate(REVISION, 'CreateTaskResult', r) : undefined;
        if (!valid || shapeBroken(valid))
          return fail(`tools/call of ${p.tool} with task did not return a CreateTaskResult`, {
            expected: 'a CreateTaskResult',
            actual: valid ? valid.errors : describeReply(reply),
          });
        const task = r!.task as Record<string, unknown>;
        if (task.status !== 'working')
          return fail(`a new task began in status ${JSON.stringify(task.status)}`, {
            expected: { status: 'working' },
            actual: task,
          });
        ids.push(task.taskId);
      }
      if (new Set(ids).size !== ids.length)
        return fail('two created tasks share a taskId', { expected: 'distinct taskIds', actual: ids });
      return pass(`${ids.length} tasks created on ${p.tool}, each working with its own id`);
    },
  },
  {
    id: 'tasks/get/task',
    revisions: REVISIONS,
    title: 'Tasks carry their ttl and ISO 8601 timestamps and change status only as allowed',
    requirement: requirement(
      'tasks.ttl',
      'MUST',
      `${PAGE}#ttl-and-resource-management`,
      'tasks/get returns the task with its actual ttl (or null), and every task response carries createdAt and lastUpdatedAt timestamps',
    ),
    covers: ['tasks.timestamps', 'tasks.transitions'],
    requires: TASKS,
    async run(ctx) {
      return withProbe(ctx, (p) => {
        for (const reply of [p.before, p.after]) {
          const task = taskIn(reply);
          if (reply && !task)
            return fail('tasks/get on a created task did not return it', {
              expected: 'a Task',
              actual: describeReply(reply),
            });
          if (task && !('ttl' in task))
            return fail('a tasks/get result has no ttl', {
              expected: 'ttl: a number of milliseconds, or null',
              actual: task,
            });
        }
        const listed = p.pages
          .flatMap((page) => (resultOf(page)?.tasks as unknown[] | undefined) ?? [])
          .filter(isObject);
        const seen = [...p.creates, p.before, p.after, p.cancelWorking, p.afterCancel]
          .map(taskIn)
          .filter((t) => t !== undefined);
        for (const task of [...seen, ...listed]) {
          const problem = timestampProblem(task);
          if (problem)
            return fail(`task ${String(task.taskId)} has ${problem}`, {
              expected: 'createdAt and lastUpdatedAt as ISO 8601 date-times',
              actual: task,
            });
        }
        for (const statuses of [
          [p.creates[0], p.before, p.after],
          [p.creates[1], p.cancelWorking, p.afterCancel],
        ].map((r) =>
          r
            .map(taskIn)
            .filter((t) => t !== undefined)
            .map((t) => t.status),
        )) {
          const step = statuses.findIndex((s, i) => i > 0 && !allowed(statuses[i - 1], s));
          if (step > 0)
            return fail(`a task went from ${JSON.stringify(statuses[step - 1])} to ${JSON.stringify(statuses[step])}`, {
              expected: 'working → input_required or a terminal status; terminal statuses never change',
              actual: statuses,
            });
        }
        return pass(
          `${seen.length + listed.length} task response(s) carry ttl and timestamps; statuses changed as allowed`,
        );
      });
    },
  },
  {
    id: 'tasks/result/payload',
    revisions: REVISIONS,
    title: 'tasks/result waits for the task to end and returns the tool result with related-task _meta',
    requirement: requirement(
      'tasks.result.exact',
      'MUST',
      `${PAGE}#result-retrieval`,
      'tasks/result returns what the underlying request would have (a CallToolResult for tools/call), once the task is terminal, with io.modelcontextprotocol/related-task in _meta',
    ),
    covers: ['tasks.result.meta', 'tasks.result.blocking'],
    requires: TASKS,
    async run(ctx) {
      return withProbe(ctx, (p) => {
        const id = taskIn(p.creates[0])!.taskId;
        if (!p.result)
          return skip(
            `tasks/result did not answer within ${(ctx.timeoutMs * RESULT_WAIT) / 1000} s: the task may still be working`,
          );
        const r = resultOf(p.result);
        if (!r)
          return fail('tasks/result on a created task did not return a result', {
            expected: 'a CallToolResult',
            actual: describeReply(p.result),
          });
        const valid = validate(REVISION, 'CallToolResult', r);
        if (shapeBroken(valid))
          return fail('the tasks/result of a tools/call task is not a CallToolResult', {
            expected: 'a CallToolResult',
            actual: valid.errors,
          });
        const related = isObject(r._meta) ? r._meta[RELATED] : undefined;
        if (!isObject(related) || related.taskId !== id)
          return fail(`the tasks/result has no ${RELATED} _meta naming the task`, {
            expected: { _meta: { [RELATED]: { taskId: id } } },
            actual: r._meta ?? null,
          });
        const status = taskIn(p.after)?.status;
        if (!TERMINAL.includes(String(status)))
          return fail(`tasks/result answered while the task was still ${JSON.stringify(status)}`, {
            expected: 'a terminal status once tasks/result has answered',
            actual: status,
          });
        return pass(`tasks/result returned a CallToolResult for the ${String(status)} task, tagged with its id`);
      });
    },
  },
  {
    id: 'tasks/list/contains',
    revisions: REVISIONS,
    title: 'A task that tasks/get returns is listed by tasks/list',
    requirement: requirement(
      'tasks.list',
      'MUST',
      `${PAGE}#listing-tasks`,
      'A task retrievable with tasks/get is retrievable with tasks/list, whose pages carry nextCursor while more follow',
    ),
    requires: TASKS,
    async run(ctx) {
      return withProbe(
        ctx,
        (p) => {
          if (p.listProblem) return fail(p.listProblem, { actual: p.pages.map(describeReply).slice(-1) });
          const id = taskIn(p.creates[0])!.taskId;
          const ids = p.pages.flatMap((page) =>
            (resultOf(page)!.tasks as unknown[]).filter(isObject).map((t) => t.taskId),
          );
          return ids.includes(id)
            ? pass(`the task is on one of ${p.pages.length} tasks/list page(s)`)
            : fail(`task ${String(id)} is not listed`, { expected: `a listed task ${String(id)}`, actual: ids });
        },
        'list',
      );
    },
  },
  {
    id: 'tasks/cancel/terminal',
    revisions: REVISIONS,
    title: 'tasks/cancel on a finished task gets error -32602',
    requirement: requirement(
      'tasks.cancel.terminal',
      'MUST',
      `${PAGE}#task-cancellation`,
      'A request to cancel a task already in a terminal status is rejected with -32602 (Invalid params)',
    ),
    requires: TASKS,
    async run(ctx) {
      return withProbe(
        ctx,
        (p) =>
          p.cancelDone
            ? expectCode(p.cancelDone, -32602, 'tasks/cancel on a finished task', 'fail')
            : skip('the task did not reach a terminal status'),
        'cancel',
      );
    },
  },
  {
    id: 'tasks/cancel/working',
    revisions: REVISIONS,
    title: 'tasks/cancel on a working task returns it cancelled, and it stays cancelled',
    requirement: requirement(
      'tasks.cancel.ok',
      'MUST',
      `${PAGE}#task-cancellation`,
      'Cancelling a working task moves it to cancelled before the response, and it remains cancelled',
    ),
    requires: TASKS,
    async run(ctx) {
      return withProbe(
        ctx,
        (p) => {
          if (!p.cancelWorking || !p.afterCancel)
            return skip('the second task was not created (see tasks/create/result)');
          const cancelled = taskIn(p.cancelWorking);
          if (!cancelled) {
            // A task that finished before the cancel arrived is rightly refused.
            const later = taskIn(p.afterCancel)?.status;
            if (errorOf(p.cancelWorking)?.code === -32602 && TERMINAL.includes(String(later)) && later !== 'cancelled')
              return skip(`the task was already ${String(later)} when it was cancelled`);
            return fail('tasks/cancel on a working task did not return the task', {
              expected: 'a CancelTaskResult',
              actual: describeReply(p.cancelWorking),
            });
          }
          if (cancelled.status !== 'cancelled')
            return fail(`tasks/cancel returned the task in status ${JSON.stringify(cancelled.status)}`, {
              expected: { status: 'cancelled' },
              actual: cancelled,
            });
          const later = taskIn(p.afterCancel);
          // A cancelled task may also be deleted at once: tasks/get then answers -32602.
          if (later ? later.status !== 'cancelled' : errorOf(p.afterCancel)?.code !== -32602)
            return fail('a cancelled task did not stay cancelled', {
              expected: 'status cancelled (or -32602 once deleted)',
              actual: describeReply(p.afterCancel),
            });
          return pass('the task was cancelled and stayed cancelled');
        },
        'cancel',
      );
    },
  },
  {
    id: 'tasks/meta/omit',
    revisions: REVISIONS,
    title: 'tasks/get, tasks/list and tasks/cancel results carry no related-task _meta',
    requirement: requirement(
      'tasks.meta.omit',
      'SHOULD',
      `${PAGE}#associating-task-related-messages`,
      'Results of tasks/get, tasks/list and tasks/cancel should not carry io.modelcontextprotocol/related-task, as the task id is already in them',
    ),
    requires: TASKS,
    async run(ctx) {
      return withProbe(ctx, (p) => {
        const tagged = [p.before, p.after, p.cancelDone, p.cancelWorking, p.afterCancel, ...p.pages]
          .filter((r) => r !== undefined)
          .filter((r) => {
            const meta = resultOf(r)?._meta;
            return isObject(meta) && RELATED in meta;
          });
        return tagged.length > 0
          ? warn(`${tagged.length} result(s) carry ${RELATED} _meta`, {
              expected: 'no related-task _meta',
              actual: describeReply(tagged[0]),
            })
          : pass('no related-task _meta on tasks/get, tasks/list or tasks/cancel results');
      });
    },
  },
  {
    id: 'tasks/call/no-capability',
    revisions: REVISIONS,
    title: 'A server without task support for tools/call ignores the task field of a call',
    requirement: requirement(
      'tasks.nocap.ignore',
      'MUST',
      `${PAGE}#task-support-and-handling`,
      'A receiver that does not declare task support for a request type processes such requests normally, ignoring the task field',
    ),
    async run(ctx) {
      if (capabilityOf(ctx)?.requests?.tools?.call !== undefined)
        return skip('the server declares tasks.requests.tools.call');
      if (ctx.profile.capabilities.tools === undefined) return skip(undeclaredCapability('tools'));
      // A tool that declares task support is the likeliest to act on the task field.
      const tool =
        callableTool(ctx, (s) => s === 'optional', false) ?? callableTool(ctx, (s) => s !== 'required', false);
      if (!tool) return skip(`no tool is callable under the tool-call policy with generated arguments${NOTE}`);
      const reply = await ctx.request('tools/call', { ...tool, task: { ttl: 60_000 } });
      const what = `tools/call of ${tool.name} with a task field`;
      const r = resultOf(reply);
      if (r && 'task' in r)
        return fail(`${what} created a task, though the server does not declare task support`, {
          expected: 'a CallToolResult',
          actual: r,
        });
      if (r) {
        const valid = validate(REVISION, 'CallToolResult', r);
        return shapeBroken(valid)
          ? fail(`${what} did not return a CallToolResult`, { expected: 'a CallToolResult', actual: valid.errors })
          : pass(`${what} was answered as a plain call`);
      }
      // An error is right only when the plain call fails too.
      const plain = await ctx.request('tools/call', tool);
      return errorOf(plain)
        ? skip(`${tool.name} answers an error with or without the task field`)
        : fail(`${what} was refused, though the plain call succeeds`, {
            expected: "the plain call's result",
            actual: describeReply(reply),
          });
    },
  },
  {
    id: 'tasks/call/required',
    revisions: REVISIONS,
    title: 'A plain call of a tool that runs only as a task is rejected',
    requirement: requirement(
      'tasks.required',
      'MUST',
      `${PAGE}#tool-level-negotiation`,
      'A tools/call without task of a tool whose execution.taskSupport is required is rejected: -32601 (Tool-Level Negotiation), or -32600 (Error Handling allows it)',
    ),
    requires: TASKS,
    async run(ctx) {
      if (capabilityOf(ctx)?.requests?.tools?.call === undefined)
        return skip('the server does not declare tasks.requests.tools.call');
      const tool = callableTool(ctx, (s) => s === 'required', true);
      if (!tool)
        return skip(
          `no tool with execution.taskSupport required is callable under the tool-call policy with generated arguments${NOTE}`,
        );
      const reply = await ctx.request('tools/call', tool);
      const what = `tools/call of ${tool.name} (task required) without task`;
      const code = errorOf(reply)?.code;
      const expected = 'error -32601 (or -32600)';
      // A tool-error result rejects the call too, though not with the error the spec names.
      if (code === undefined && resultOf(reply)?.isError === true)
        return warn(`${what} was refused with an isError result, not a JSON-RPC error`, {
          expected,
          actual: describeReply(reply),
        });
      if (code === undefined) return fail(`${what} succeeded`, { expected, actual: describeReply(reply) });
      // The spec names both codes (requirements §1.20): either is accepted.
      return code === -32601 || code === -32600
        ? pass(`${what} → ${code}`)
        : warn(`${what} → ${JSON.stringify(code)}`, { expected, actual: describeReply(reply) });
    },
  },
  {
    id: 'tasks/call/forbidden',
    revisions: REVISIONS,
    title: 'A task-augmented call of a tool that does not support tasks gets error -32601',
    requirement: requirement(
      'tasks.forbidden',
      'SHOULD',
      `${PAGE}#tool-level-negotiation`,
      'A task-augmented tools/call of a tool whose execution.taskSupport is absent or forbidden should be answered with -32601',
    ),
    requires: TASKS,
    async run(ctx) {
      if (capabilityOf(ctx)?.requests?.tools?.call === undefined)
        return skip('the server does not declare tasks.requests.tools.call');
      const tool = callableTool(ctx, (s) => s === undefined || s === 'forbidden', false);
      if (!tool)
        return skip(
          `no tool without task support is callable under the tool-call policy with generated arguments${NOTE}`,
        );
      const reply = await ctx.request('tools/call', { ...tool, task: { ttl: 60_000 } });
      const what = `tools/call of ${tool.name} (no task support) as a task`;
      return errorOf(reply)
        ? expectCode(reply, -32601, what, 'warn')
        : warn(`${what} succeeded`, { expected: { error: { code: -32601 } }, actual: describeReply(reply) });
    },
  },
];
