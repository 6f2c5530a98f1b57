// Passive rules on what a server sends of its own accord: progress, log messages after a level was set, change notifications.
import { STATELESS_REVISION } from '../../schema/validators.js';
import type { Exchange, InboundEvent } from '../../session/session.js';
import { isObject } from '../../json.js';
import { overStdio } from '../../transport/transport.js';
import { requirement } from '../kit/requirement.js';
import type { Finding, FrameRule } from '../kit/frame-rule.js';

/** The eight log levels, least severe first (RFC 5424). */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** The `_meta` key with which a 2026-07-28 request asks for log messages, and from which level (server/utilities/logging). */
export const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';

/** Whether `level` is one of the eight and less severe than `threshold`. */
export const belowLevel = (level: unknown, threshold: string) =>
  LOG_LEVELS.indexOf(String(level)) >= 0 && LOG_LEVELS.indexOf(String(level)) < LOG_LEVELS.indexOf(threshold);

/** Over HTTP, a message on another stream than setLevel's response may have been sent before it: this long after, not any more. */
const HTTP_CROSSING_MS = 2000;

/** The level each session last set (logging/setLevel answered with a result), and when its answer came. */
const levels = new Map<number, { level: string; t: number }>();
/** The URIs each session subscribed to, and those it unsubscribed from since. */
const subscriptions = new Map<number, { on: Set<string>; off: Set<string> }>();

const params = (e: InboundEvent) => (isObject(e.message?.params) ? e.message.params : {});
const requestUri = (x: Exchange) => (isObject(x.params) && typeof x.params.uri === 'string' ? x.params.uri : undefined);

/** Notes what the session's answered setLevel and subscribe requests changed. */
function follow(e: InboundEvent): void {
  const x = e.exchange;
  if (e.kind !== 'response' || !x || !isObject(e.message?.result)) return;
  if (x.method === 'logging/setLevel' && isObject(x.params) && LOG_LEVELS.includes(String(x.params.level)))
    levels.set(e.session, { level: String(x.params.level), t: e.line.entry.t });
  const uri = requestUri(x);
  if (uri === undefined || (x.method !== 'resources/subscribe' && x.method !== 'resources/unsubscribe')) return;
  const s = subscriptions.get(e.session) ?? { on: new Set<string>(), off: new Set<string>() };
  subscriptions.set(e.session, s);
  if (x.method === 'resources/subscribe') {
    s.on.add(uri);
    s.off.delete(uri);
  } else {
    s.on.delete(uri);
    s.off.add(uri);
  }
}

const LIST_CHANGED: Record<string, string> = {
  'notifications/tools/list_changed': 'tools',
  'notifications/prompts/list_changed': 'prompts',
  'notifications/resources/list_changed': 'resources',
};

export const CONVERSATION_RULES: FrameRule[] = [
  {
    id: 'progress/notifications/known-token',
    title: 'Progress only for a progressToken the client sent',
    requirement: requirement(
      'prog.token-known',
      'MUST',
      'basic/utilities/progress#behavior-requirements',
      'Progress notifications MUST only reference tokens that were provided in an active request',
    ),
    covers: ['prog.no-token'],
    looksAt: 'notifications/progress',
    inspect(e) {
      if (e.kind !== 'notification' || e.message?.method !== 'notifications/progress') return undefined;
      if (e.progressTokenSent) return [];
      return [
        {
          severity: 'fail',
          message: `progress for token ${JSON.stringify(params(e).progressToken)}, which no request of the session carried`,
          expected: 'a progressToken the client sent',
          actual: e.message.params,
        },
      ];
    },
  },
  {
    id: 'logging/messages/threshold',
    title: 'No log message below the level the client set',
    requirement: requirement(
      'log.threshold',
      'SHOULD',
      'server/utilities/logging#setting-log-level',
      'After logging/setLevel, the server should send log messages at that level and higher only',
    ),
    looksAt: 'notifications/message after logging/setLevel',
    inspect(e, ctx) {
      follow(e);
      const set = levels.get(e.session);
      if (e.kind !== 'notification' || e.message?.method !== 'notifications/message' || !set) return undefined;
      const level = params(e).level;
      if (!belowLevel(level, set.level)) return [];
      if (!overStdio(ctx.transport) && e.line.entry.t - set.t < HTTP_CROSSING_MS) return [];
      return [
        {
          severity: 'warn',
          message: `a log message at level ${String(level)} came after logging/setLevel ${set.level}`,
          expected: `levels from ${set.level} up`,
          actual: e.message.params,
        },
      ];
    },
  },
  {
    id: 'capabilities/list-changed/declared',
    title: 'list_changed notifications only with listChanged: true',
    requirement: requirement(
      'cap.listChanged.gate',
      'MUST',
      'basic/lifecycle#operation',
      'Only use capabilities that were successfully negotiated: tools, prompts and resources list_changed notifications need listChanged: true',
    ),
    looksAt: 'notifications/{tools,prompts,resources}/list_changed',
    inspect(e, ctx) {
      const kind = LIST_CHANGED[String(e.message?.method)];
      if (e.kind !== 'notification' || !kind || !ctx.capabilities) return undefined;
      const declared = ctx.capabilities[kind];
      if (isObject(declared) && declared.listChanged === true) return [];
      // 2025-03-26 had no "only use negotiated capabilities" MUST yet (requirements cap.listChanged.gate).
      const severity: Finding['severity'] = e.revision === '2025-03-26' ? 'warn' : 'fail';
      return [
        {
          severity,
          message: `${e.message!.method as string} sent, but the ${kind} capability does not declare listChanged: true`,
          expected: { [kind]: { listChanged: true } },
          actual: { [kind]: declared ?? null },
        },
      ];
    },
  },
  {
    id: 'resources/updated/subscribed',
    title: 'notifications/resources/updated only for a subscribed URI',
    requirement: requirement(
      'cap.resources.updated.gate',
      'SHOULD',
      'server/resources#subscriptions',
      'notifications/resources/updated should only be sent for a resource the client subscribed to (or one under it), and not after it unsubscribed',
    ),
    looksAt: 'notifications/resources/updated (2025 revisions)',
    inspect(e, ctx) {
      follow(e);
      // 2026-07-28 sends updates on subscriptions/listen streams: the stateless rules judge those.
      if (
        e.kind !== 'notification' ||
        e.message?.method !== 'notifications/resources/updated' ||
        e.revision === STATELESS_REVISION
      )
        return undefined;
      const uri = params(e).uri;
      if (typeof uri !== 'string') return undefined; // schema/notifications judges the shape
      const s = subscriptions.get(e.session);
      const under = (u: string | undefined) =>
        u !== undefined && (uri === u || uri.startsWith(u.endsWith('/') ? u : `${u}/`));
      // One that crossed the subscribe (sent before its answer came) or the unsubscribe (before the server read it) is fine.
      const crossing = e
        .inFlight?.()
        .some(
          (x) => (x.method === 'resources/subscribe' || x.method === 'resources/unsubscribe') && under(requestUri(x)),
        );
      if ([...(s?.on ?? [])].some(under) || crossing) return [];
      if (s?.off.has(uri)) {
        // Over HTTP, streams arrive in no set order: it may have been sent before the unsubscribe was served.
        if (!overStdio(ctx.transport)) return [];
        return [
          {
            severity: 'warn',
            message: `notifications/resources/updated for ${uri} after the client unsubscribed from it`,
            expected: 'no updates after resources/unsubscribe',
            actual: e.message.params,
          },
        ];
      }
      return [
        {
          severity: 'warn',
          message: `notifications/resources/updated for ${uri}, which the client never subscribed to`,
          expected: `an update for a subscribed URI (${[...(s?.on ?? [])].join(', ') || 'none'})`,
          actual: e.message.params,
        },
      ];
    },
  },
];
