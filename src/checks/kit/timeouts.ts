// The verdict on a request that went unanswered, decided by what was asked (docs/what-it-checks.md, "Decided cases").
import type { ServerProfile } from '../../discovery/profile.js';
import { type Exchange, type RequestTimeout, seconds } from '../../session/session.js';
import { isObject } from '../../json.js';

/**
 * What a request asked the server to do that may take long, e.g. `tool search`: a call of a listed tool, a read of a
 * listed resource, a get of a listed prompt, or the result of a task (which waits for the task's tool). Undefined for
 * everything else (unknown methods, ping, initialize, lists, requests the server must reject): those need no work
 * that may be slow, and every request MUST be answered.
 */
export function slowWork(profile: ServerProfile, method: string, params: unknown): string | undefined {
  const p = isObject(params) ? params : {};
  const listed = (items: { name?: unknown; uri?: unknown }[], field: 'name' | 'uri') =>
    typeof p[field] === 'string' && items.some((i) => i[field] === p[field]);
  if (method === 'tools/call' && listed(profile.tools, 'name')) return `tool ${String(p.name)}`;
  if (method === 'resources/read' && listed(profile.resources, 'uri')) return `resource ${String(p.uri)}`;
  if (method === 'prompts/get' && listed(profile.prompts, 'name')) return `prompt ${String(p.name)}`;
  if (method === 'tasks/result') return 'a task result';
  return undefined;
}

/** A timeout's verdict: warn when the work asked for may be slow (naming it), fail otherwise; with the time waited. */
export function timeoutVerdict(
  profile: ServerProfile,
  err: RequestTimeout,
): { status: 'fail' | 'warn'; message: string; silent?: Exchange[] } {
  const waited = seconds(err.ms);
  const slow = slowWork(profile, err.method, err.exchange?.params);
  if (slow) return { status: 'warn', message: slowMessage([`${slow} (${err.method}) within ${waited}`]) };
  return {
    status: 'fail',
    message: `no answer to ${err.method} within ${waited}: it needs no slow work, and every request MUST get a response`,
    ...(err.exchange && { silent: [err.exchange] }),
  };
}

/** How slow work that went unanswered is worded, whichever check met it: `parts` are `tool x (tools/call) within 10.0 s`. */
export const slowMessage = (parts: string[]) =>
  `no answer from ${parts.join(', ')}: slow work may take longer (--timeout raises the limit)`;
