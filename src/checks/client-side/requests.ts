// client-side/tools: how the client manages its own requests — progress tokens unique among those in flight, and a
// request it gives up on cancelled with notifications/cancelled.
import { isObject } from '../../json.js';
import { fail, pass, skip, warn } from '../kit/check.js';
import { type ClientCheckDef, type ScenarioRecord, excerpt, where } from '../kit/client-check.js';
import { requirement } from '../kit/requirement.js';

const INIT = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
const messagesOf = (m: unknown): Record<string, unknown>[] =>
  (Array.isArray(m) ? m : [m]).filter(isObject) as Record<string, unknown>[];
const key = (v: unknown) => JSON.stringify(v);

export const CLIENT_REQUEST_CHECKS: ClientCheckDef[] = [
  {
    id: 'client-side/tools/progress-token-unique',
    title: 'A progress token is not reused while another request carrying it is in flight',
    requirement: requirement(
      'client-side.tools.progress-token-unique',
      'MUST',
      'basic/utilities/progress#progress-flow',
      'The progressToken a client puts in a request differs from that of every other request of its still awaiting an answer',
    ),
    judge: (r) => {
      // In flight: from the request's frame to the server's answer to it, or the client's cancellation of it.
      const active = new Map<string, { id: string; seq: number }>();
      let tokens = 0;
      for (const f of r.conv.frames)
        for (const m of messagesOf(f.message)) {
          if (f.dir === 'out' && 'id' in m && !('method' in m)) {
            for (const [t, a] of active) if (a.id === key(m.id)) active.delete(t);
          } else if (f.dir === 'in' && m.method === 'notifications/cancelled' && isObject(m.params)) {
            for (const [t, a] of active) if (a.id === key(m.params.requestId)) active.delete(t);
          } else if (f.dir === 'in' && typeof m.method === 'string' && 'id' in m) {
            const meta = isObject(m.params) && isObject(m.params._meta) ? m.params._meta : {};
            if (meta.progressToken === undefined) continue;
            tokens++;
            const t = key(meta.progressToken);
            const other = active.get(t);
            if (other && other.id !== key(m.id))
              return fail(
                `${where(r)}: ${String(m.method)} (id ${key(m.id)}) carries progressToken ${t}, still in use by request ${other.id}`,
                { transcript: excerpt(r, [other.seq, f.seq]) },
              );
            active.set(t, { id: key(m.id), seq: f.seq });
          }
        }
      return tokens === 0
        ? skip(`${where(r)}: the client sent no progressToken`)
        : pass(`${where(r)}: ${tokens} requests with a progressToken, none shared while in flight`);
    },
  },
  {
    id: 'client-side/tools/cancel-abandoned',
    title: 'A request the client gives up on is cancelled with notifications/cancelled',
    requirement: requirement(
      'client-side.tools.cancel-abandoned',
      'SHOULD',
      'basic/lifecycle#timeouts',
      'A client that stops waiting for the answer to a request sends notifications/cancelled naming it',
    ),
    revisions: INIT,
    scenarios: ['request-abandoned'],
    judge: (r) => judgeAbandoned(r),
  },
];

function judgeAbandoned(r: ScenarioRecord) {
  const frames = r.conv.frames;
  const call = frames.find((f) =>
    messagesOf(f.message).some(
      (m) => f.dir === 'in' && m.method === 'tools/call' && isObject(m.params) && m.params.name === 'never_answers',
    ),
  );
  if (!call) return skip(`${where(r)}: the client did not ${r.scenario.asks}`);
  const id = key(messagesOf(call.message).find((m) => m.method === 'tools/call')?.id);
  const cancel = frames.find(
    (f) =>
      f.dir === 'in' &&
      messagesOf(f.message).some(
        (m) => m.method === 'notifications/cancelled' && isObject(m.params) && key(m.params.requestId) === id,
      ),
  );
  if (cancel) return pass(`${where(r)}: the call (id ${id}) was cancelled with notifications/cancelled`);
  // Still waiting when its budget ran out: it never gave up, which a timeout longer than the budget allows.
  if (r.exit.stopped)
    return skip(
      `${where(r)}: the client was still waiting for never_answers when its budget ran out (it did not give up)`,
    );
  return warn(
    `${where(r)}: the client gave up on never_answers (id ${id}) — it ended (exit ${String(r.exit.code ?? r.exit.signal)}) without an answer — and sent no notifications/cancelled`,
    { transcript: excerpt(r, [call.seq]) },
  );
}
