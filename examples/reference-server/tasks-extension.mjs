// The Tasks extension (io.modelcontextprotocol/tasks) on the stateless wire (2026-07-28): a client that declares it in
// a request's capabilities may get a task handle (resultType "task") for a tools/call, then polls tasks/get, answers the
// task's input requests with tasks/update and may send tasks/cancel. A tool opts in with `extTask`:
// `{ kind: 'work' }` runs it after a short while, `{ kind: 'fail', error }` fails with that JSON-RPC error, and
// `{ kind: 'input', ask, finish }` first asks the client (an elicitation) and finishes with its answer.
import { randomUUID } from 'node:crypto';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** How long a task works before it ends; short, so that a client polling sees it end within its timeout. */
export const EXT_TASK_WORK_MS = 300;
const TTL_MS = 60_000;
const POLL_MS = 100;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a request's client capabilities declare the extension (the legacy `tasks` capability does not count). */
export const declaresTasks = (caps) =>
  isObject(caps) && isObject(caps.extensions) && isObject(caps.extensions[TASKS_EXTENSION]);

/** The data of the -32021 a client gets when it needs the extension and did not declare it. */
export const missingTasks = () => ({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });

/**
 * A server's extension tasks, by id. `fail(code, message, data)` makes the error a handler throws; `changed(task)` is
 * told each new state, as tasks/get would return it (for notifications/tasks).
 * @param {(task: object) => void} [changed]
 */
export function createExtensionTasks(fail, changed = () => {}) {
  const tasks = new Map();
  /** The task as tasks/get returns it: with what its status carries. */
  const view = (entry) => {
    const task = { ...entry.task };
    if (task.status === 'input_required') task.inputRequests = Object.fromEntries(entry.outstanding);
    if (task.status === 'completed') task.result = entry.result;
    if (task.status === 'failed') task.error = entry.error;
    return task;
  };
  const touch = (entry, changes) => {
    Object.assign(entry.task, changes, { lastUpdatedAt: new Date().toISOString() });
    changed(view(entry));
  };
  const later = (entry, fn) => {
    entry.timer = setTimeout(() => entry.task.status === 'working' && fn(), EXT_TASK_WORK_MS);
    entry.timer.unref?.();
  };
  const complete = (entry, run) => {
    try {
      // A tool result, even one with isError, completes the task; only a JSON-RPC error fails it.
      const result = run();
      entry.result = result;
      touch(entry, { status: 'completed' });
    } catch (thrown) {
      const err = /** @type {any} */ (thrown); // anything: read defensively
      entry.error = {
        code: Number.isInteger(err?.code) ? err.code : -32603,
        message: String(err?.message ?? 'Internal error'),
      };
      touch(entry, { status: 'failed', statusMessage: entry.error.message });
    }
  };
  const entryOf = (params) => {
    const entry = typeof params?.taskId === 'string' ? tasks.get(params.taskId) : undefined;
    if (!entry) throw fail(-32602, `Task not found: ${JSON.stringify(params?.taskId)}`);
    return entry;
  };

  return {
    /** Starts a task for a call of `tool`; returns the CreateTaskResult once a tasks/get would find it. */
    create(tool, run) {
      const created = new Date().toISOString();
      const entry = {
        task: {
          taskId: randomUUID(),
          status: 'working',
          createdAt: created,
          lastUpdatedAt: created,
          ttlMs: TTL_MS,
          pollIntervalMs: POLL_MS,
        },
        outstanding: new Map(),
        keys: 0,
      };
      tasks.set(entry.task.taskId, entry);
      const { kind } = tool.extTask;
      if (kind === 'work') later(entry, () => complete(entry, run));
      if (kind === 'fail')
        later(entry, () =>
          complete(entry, () => {
            throw tool.extTask.error;
          }),
        );
      if (kind === 'input') {
        // Keys are never reused over a task's life: each request gets a new one.
        entry.outstanding.set(`${tool.extTask.key}-${++entry.keys}`, tool.extTask.ask);
        entry.finish = tool.extTask.finish;
        touch(entry, { status: 'input_required' });
      }
      return { resultType: 'task', ...entry.task, status: 'working' };
    },

    has: (taskId) => tasks.has(taskId),

    get(params) {
      return view(entryOf(params));
    },

    update(params) {
      const entry = entryOf(params);
      const responses = isObject(params.inputResponses) ? params.inputResponses : {};
      const answered = Object.keys(responses).filter((key) => entry.outstanding.has(key));
      // Responses to keys that are not outstanding are ignored.
      for (const key of answered) entry.outstanding.delete(key);
      if (answered.length > 0 && entry.outstanding.size === 0 && entry.task.status === 'input_required') {
        touch(entry, { status: 'working' });
        const answer = responses[answered[answered.length - 1]];
        later(entry, () => complete(entry, () => entry.finish(answer)));
      }
      return {};
    },

    cancel(params) {
      const entry = entryOf(params);
      if (!TERMINAL.has(entry.task.status)) {
        clearTimeout(entry.timer);
        entry.outstanding.clear();
        touch(entry, { status: 'cancelled' });
      }
      return {};
    },
  };
}
