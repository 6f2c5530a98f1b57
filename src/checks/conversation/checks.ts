// What a real client does besides asking: it follows progress, cancels what it no longer needs, sets a log level.
import type { TranscriptEntry } from '../../schema/generated/report.js';
import type { Reply } from '../../session/session.js';
import { seconds } from '../../session/session.js';
import { REVISIONS, SCHEMA_REVISIONS, STATELESS_REVISION } from '../../schema/validators.js';
import { isObject } from '../../json.js';
import { overStdio } from '../../transport/transport.js';
import { type CheckDef, errorOf, pass, skip, warn, worst } from '../kit/check.js';
import { requirement } from '../kit/requirement.js';
import { httpOf } from '../kit/http.js';
import { LOG_LEVEL, LOG_LEVELS, belowLevel } from './rules.js';
import {
  CANCEL_GRACE_MS,
  LINGER_MS,
  callSlowest,
  delay,
  excerpt,
  judgeProgress,
  nextToken,
  probeRun,
  progressProbe,
  slowTarget,
  toolCalls,
  trace,
} from './probe.js';

export const CONVERSATION_CHECKS: CheckDef[] = [
  {
    id: 'progress/requests/notifications',
    revisions: SCHEMA_REVISIONS,
    fresh: true,
    elsewhere: true,
    slowWork: true,
    title: 'Progress for a request with a progressToken increases and stops with the response',
    requirement: requirement(
      'prog.increasing',
      'MUST',
      'basic/utilities/progress#progress-flow',
      'The progress value MUST increase with each notification; progress notifications MUST stop after completion',
    ),
    covers: ['prog.stop-after'],
    async run(ctx) {
      const { session, traces, leftOut } = await progressProbe(ctx);
      const unanswered = traces.filter((t) => t.timedOut).map((t) => t.label);
      const left = `${unanswered.length > 0 ? `; unanswered within --timeout (slow work): ${unanswered.join(', ')}` : ''}${leftOut.length > 0 ? `; left out: ${leftOut.join(', ')}` : ''}`;
      if (traces.length === 0)
        return skip(`no request to send with a progressToken: no list capability and no tool the run may call${left}`);
      // A call that reported fewer than two steps is judged by its second call, at the upper end of its arguments'
      // range, when that one reported more (its label says so).
      const reported = traces
        .map((t) => (t.again && t.again.progress.length > t.progress.length ? t.again : t))
        .filter((t) => t.progress.length > 0);
      if (reported.length === 0)
        return skip(
          `no progress came for the ${traces.length} request(s) sent with a progressToken (a server may send none): ${traces.map((t) => t.label).join(', ')}${left}`,
        );
      const ordered = overStdio(session.transport.kind);
      const outcome = worst(reported.flatMap((t) => judgeProgress(t, ordered)));
      const count = reported.reduce((n, t) => n + t.progress.length, 0);
      const summary = `${count} progress notification(s) for ${reported.map((t) => t.label).join(', ')} (of ${traces.length} request(s) with a token)`;
      return {
        ...outcome,
        message:
          outcome.status === 'pass'
            ? `${summary}: increasing, none after the response${ordered ? '' : ' seen on the same stream'}${left}`
            : outcome.message,
        transcript: excerpt(reported),
      };
    },
  },
  {
    id: 'cancellation/request/no-response',
    revisions: REVISIONS,
    fresh: true,
    slowWork: true,
    title: 'A cancelled request gets no response, and the server keeps serving',
    requirement: requirement(
      'cancel.no-response',
      'SHOULD',
      'basic/utilities/cancellation#behavior-requirements',
      'Receivers of a cancellation SHOULD stop processing the request and not send a response for it',
    ),
    async run(ctx) {
      // The probe's session may belong to the progress check, closed when it ends: the cancellation gets one of its own,
      // started while the probe runs.
      const own = ctx.profile.capabilities.tools === undefined ? undefined : ctx.ownSession();
      own?.catch(() => {}); // a failed start is reported where it is awaited
      const probe = await probeRun(ctx);
      if (!own) return skip(slowTarget(await probe.done).skipped);
      const session = await own;
      const longest = 2 * ctx.timeoutMs;
      // Its own call of each tool the probe calls, sent beside the probe's: the first found working is cancelled, while
      // its twin in the probe runs on and shows when an answer that ignores the cancellation would come.
      const mine = trace(session, probe.calls, longest, (token) => `mcp-conformance-cancel-${token}`);
      const found = await mine.working;
      const call = found
        ? { target: found, twin: probe.traces.find((t) => t.label === found.label)! }
        : await callSlowest(session, await probe.done, ctx.timeoutMs);
      if ('skipped' in call) return skip(call.skipped);
      const { target, twin } = call;
      if (target.tookMs !== undefined)
        return skip(`${target.label} answered in ${target.tookMs} ms, before it could be cancelled`);
      const id = target.id!;
      const cancelAt = performance.now();
      const cancel = session.notify('notifications/cancelled', {
        requestId: id,
        reason: 'mcp-conformance: cancellation probe',
      });
      // Waits for the answer a server that ignores the cancellation would send: as long as the probe's call took (it may
      // still be working), and the grace.
      await Promise.race([target.settled, twin.settled]);
      const wait = Math.min((twin.tookMs ?? ctx.timeoutMs) + CANCEL_GRACE_MS, longest);
      await Promise.race([target.settled, delay(target.sentAt + wait - performance.now())]);
      const answer = target.reply;
      const answeredAt = target.tookMs === undefined ? undefined : target.sentAt + target.tookMs;
      const alive = await session.request('ping', {}).then(
        () => true,
        () => false,
      );
      const notServing = alive
        ? []
        : [
            warn('the server did not answer ping after the cancellation: it stopped serving', {
              expected: 'ping answered',
              actual: 'no answer',
            }),
          ];
      // Read before the cancellation went out (the answer resolves its request a turn after its frame is read).
      if (answer && answer.entry.seq < cancel.seq) return skip(`${target.label} answered before it could be cancelled`);
      if (answer && answeredAt !== undefined) {
        const after = Math.round(answeredAt - cancelAt);
        // One that crossed the cancellation on the wire was sent before the server read it (CANCEL › race conditions).
        if (after > CANCEL_GRACE_MS) {
          return worst([
            warn(`${target.label} was answered ${seconds(after)} after it was cancelled`, {
              expected: `no response after notifications/cancelled (one within ${seconds(CANCEL_GRACE_MS)} may have crossed it)`,
              actual: answer.message,
            }),
            ...notServing,
          ]);
        }
        return skip(
          `${target.label}'s response crossed the cancellation (${after} ms after it, tolerated): nothing showed whether the server honours cancellations`,
        );
      }
      return worst([
        pass(
          `${target.label} was cancelled ${Math.round(cancelAt - target.sentAt)} ms in and got no response within ${Math.round(wait)} ms; the server kept serving`,
        ),
        ...notServing,
      ]);
    },
  },
  {
    id: 'logging/set-level/threshold',
    revisions: REVISIONS,
    // Session state (a log level) kept off the shared session: a turn on a scratch session, not a server of its own.
    scratch: true,
    title: 'After logging/setLevel error, no log message below error',
    requirement: requirement(
      'log.threshold',
      'SHOULD',
      'server/utilities/logging#setting-log-level',
      'After logging/setLevel, the server should send log messages at that level and higher only',
    ),
    requires: { capabilities: ['logging'] },
    async run(ctx) {
      const session = await ctx.ownSession();
      const seen: { level: unknown; entry: TranscriptEntry; phase: number }[] = [];
      let phase = 0;
      let shownBelow = () => {};
      const below = new Promise<void>((resolve) => (shownBelow = resolve));
      const stop = session.onInbound((e) => {
        if (e.message?.method !== 'notifications/message' || !isObject(e.message.params)) return;
        seen.push({ level: e.message.params.level, entry: e.line.entry, phase });
        if (phase === 1 && belowLevel(e.message.params.level, 'error')) shownBelow();
      });
      // The same calls at level debug, then at error: what they log at debug shows what error must hold back.
      let calls: ReturnType<typeof toolCalls>['calls'] = [];
      let leftOut: string[] = [];
      const at = async (level: string, before?: () => Promise<void>): Promise<Reply | string> => {
        const set = await session.request('logging/setLevel', { level }).catch((err: Error) => err.message);
        if (typeof set === 'string' || errorOf(set)) return set;
        phase++;
        await before?.();
        await Promise.all(calls.map((c) => session.request(c.method, c.params).catch(() => undefined)));
        await delay(LINGER_MS);
        return set;
      };
      try {
        // Not answered or refused: logging/set-level/each-level judges setLevel itself.
        const unset = (level: string, r: Reply | string) =>
          skip(
            `logging/setLevel ${level} ${typeof r === 'string' ? `got no answer (${r})` : 'was refused'}: logging/set-level/each-level judges that`,
          );
        const debugFrom = performance.now();
        // At debug from the start, the calls once the progress probe has sorted its own: the tools it found slow or still
        // working are left out rather than waited for twice more, and what the server logs meanwhile counts at debug.
        const debug = await at('debug', async () => {
          ({ calls, leftOut } =
            ctx.profile.capabilities.tools === undefined
              ? { calls: [], leftOut: [] }
              : toolCalls(ctx, await (await probeRun(ctx)).sorted));
        });
        if (typeof debug === 'string' || errorOf(debug)) return unset('debug', debug);
        // A server that logs of its own accord at random levels (a timer) may yet send one below error: it gets one
        // --timeout at debug in all, the time it already spent there included.
        const left = ctx.timeoutMs - (performance.now() - debugFrom);
        if (seen.some((m) => m.phase === 1) && left > 0) await Promise.race([below, delay(left)]);
        const error = await at('error');
        if (typeof error === 'string' || errorOf(error)) return unset('error', error);
        const shown = seen.filter((m) => m.phase === 1 && belowLevel(m.level, 'error'));
        const after = seen.filter((m) => m.phase === 2 && belowLevel(m.level, 'error'));
        const transcript = [debug.sent, error.sent, ...seen.map((m) => m.entry)].sort((a, b) => a.seq - b.seq);
        const what = `${calls.length} tool call(s)${leftOut.length > 0 ? `; left out: ${leftOut.join(', ')}` : ''}`;
        if (after.length > 0) {
          return warn(`${after.length} log message(s) below error came after logging/setLevel error`, {
            expected: `levels ${LOG_LEVELS.slice(LOG_LEVELS.indexOf('error')).join(', ')}`,
            actual: after.map((m) => m.level),
            transcript,
          });
        }
        if (shown.length === 0)
          return skip(
            `no log message below error came at level debug (${what}): nothing showed what level error holds back`,
          );
        return pass(`at debug, ${shown.length} message(s) below error; after setLevel error, none (${what})`, {
          transcript,
        });
      } finally {
        stop();
        // From here on the shared session logs at error too: logging/messages/threshold watches the rest of the run.
        await ctx.request('logging/setLevel', { level: 'error' }).catch(() => undefined);
      }
    },
  },
  {
    id: 'logging/request-level/threshold',
    revisions: [STATELESS_REVISION],
    // Its log messages are told by the session they came on, where no other check's requests go meanwhile: a scratch turn.
    scratch: true,
    title: 'A request whose _meta asks for log level error gets no log message below error',
    requirement: requirement(
      'log.07',
      'MAY',
      'server/utilities/logging#per-request-log-level',
      'With io.modelcontextprotocol/logLevel in its _meta, the server MAY send notifications/message for that request at that level and above; no MUST or SHOULD names lower ones, so they warn',
      STATELESS_REVISION,
    ),
    covers: ['07.logging'],
    requires: { capabilities: ['logging'] },
    async run(ctx) {
      const session = await ctx.ownSession();
      // Once the progress probe has sorted its calls: the tools it found slow or still working are left out.
      const { calls, leftOut } =
        ctx.profile.capabilities.tools === undefined
          ? { calls: [], leftOut: [] }
          : toolCalls(ctx, await (await probeRun(ctx)).sorted);
      const what = `${calls.length} tool call(s)${leftOut.length > 0 ? `; left out: ${leftOut.join(', ')}` : ''}`;
      if (calls.length === 0) return skip(`no tool the run may call, so no request that could log (${what})`);
      const seen: { level: unknown; entry: TranscriptEntry; asked: string }[] = [];
      let asked = '';
      const stop = session.onInbound((e) => {
        if (e.message?.method === 'notifications/message' && isObject(e.message.params))
          seen.push({ level: e.message.params.level, entry: e.line.entry, asked });
      });
      // The same calls asking for debug, then for error: what they log at debug shows what error must hold back.
      const at = async (level: string) => {
        asked = level;
        const replies = await Promise.all(
          calls.map((c) =>
            session.request(c.method, { ...c.params, _meta: { [LOG_LEVEL]: level } }).catch(() => undefined),
          ),
        );
        return replies.filter((r): r is Reply => r !== undefined);
      };
      try {
        const debug = await at('debug');
        const error = await at('error');
        const shown = seen.filter((m) => m.asked === 'debug' && belowLevel(m.level, 'error'));
        const below = seen.filter((m) => m.asked === 'error' && belowLevel(m.level, 'error'));
        const transcript = [...debug, ...error]
          .map((r) => r.sent)
          .concat(seen.map((m) => m.entry))
          .sort((a, b) => a.seq - b.seq);
        if (below.length > 0) {
          return warn(
            `${below.length} log message(s) below error came for requests whose _meta asked for level error`,
            {
              expected: `levels ${LOG_LEVELS.slice(LOG_LEVELS.indexOf('error')).join(', ')}`,
              actual: below.map((m) => m.level),
              transcript,
            },
          );
        }
        if (shown.length === 0)
          return skip(
            `no log message below error came for the requests that asked for debug (${what}): nothing showed what level error holds back`,
          );
        return pass(`asking for debug, ${shown.length} message(s) below error; asking for error, none (${what})`, {
          transcript,
        });
      } finally {
        stop();
      }
    },
  },
  {
    id: 'cancellation/http/stream-close',
    revisions: [STATELESS_REVISION],
    transport: 'http',
    fresh: true,
    title: 'Closing the response stream of a working request cancels it, and the server keeps serving',
    requirement: requirement(
      '07.cancel',
      'MUST',
      'basic/patterns/cancellation',
      'Over Streamable HTTP, closing the response stream of a request is its cancellation; the server sends nothing more for it and goes on serving (only the going on shows: a server that stops serving warns)',
      STATELESS_REVISION,
    ),
    // The other half of 07.cancel (a server's own notifications/cancelled only ends its subscription) is not judged:
    // the reference server never sends one, so no such rule could be shown to pass.
    covers: ['cancel.http-disconnect'],
    async run(ctx) {
      const own = ctx.ownSession();
      own.catch(() => {}); // a failed start is reported where it is awaited
      // Once the probe is done: the outage a server may have after a closed stream must not meet the other checks' work.
      const { target, skipped } = slowTarget(await progressProbe(ctx));
      if (!target) return skip(skipped);
      const session = await own;
      const http = httpOf(session);
      const closeAt = Math.round((target.tookMs ?? ctx.timeoutMs) / 4);
      const id = `mcp-conformance-stream-close-${nextToken()}`;
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: target.method,
        params: { ...target.params, _meta: { ...session.requestMeta, progressToken: nextToken() } },
      });
      // The probe stops reading, and closes the stream, a quarter of the call's probe time in.
      const o = await http.probe('POST', `${target.label}, its stream closed ${closeAt} ms in`, {}, body, closeAt);
      if (o.status === undefined)
        return skip(
          `${target.label} got no response head within ${closeAt} ms, so there was no stream to close (${o.error ?? 'no answer'})`,
        );
      if (!o.cut)
        return skip(
          `${target.label} was answered (HTTP ${o.status}) within ${closeAt} ms, before its stream could be closed`,
        );
      const probe = ctx.profile.capabilities.tools !== undefined ? 'tools/list' : 'server/discover';
      const alive = await session.request(probe, {}).then(
        (r) => !errorOf(r),
        () => false,
      );
      if (!alive)
        return warn(
          `after the stream of ${target.label} was closed ${closeAt} ms in, ${probe} was not answered: the server stopped serving`,
          { expected: `${probe} answered`, actual: 'no answer or an error' },
        );
      return pass(
        `the stream of ${target.label} was closed ${closeAt} ms in, before its answer; the server went on serving (${probe} answered)`,
      );
    },
  },
];
