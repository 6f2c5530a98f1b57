// The shape of a passive check and what rules share to read a frame; the rules themselves are in the area folders.
import type { Requirement } from '../../schema/generated/report.js';
import type { InboundEvent, Message } from '../../session/session.js';
import type { TransportKind } from '../../transport/transport.js';
import { isObject } from '../../json.js';
import { STATELESS_REVISION } from '../../schema/revisions.js';

/** One broken rule in one frame. */
export interface Finding {
  severity: 'fail' | 'warn';
  message: string;
  expected?: unknown;
  actual?: unknown;
}

/** What a rule may know besides the frame. */
export interface FrameContext {
  capabilities?: Record<string, unknown>;
  /** The run's transport: over HTTP, frames on different streams arrive in no set order. */
  transport?: TransportKind;
}

/**
 * A passive check: applied to every frame the server sends during the whole run.
 * `inspect` returns undefined when the frame is not one the rule looks at, [] when it looked and found nothing.
 */
export interface FrameRule {
  id: string;
  title: string;
  requirement: Requirement;
  /** Further catalogue requirement ids the rule also exercises. */
  covers?: string[];
  /** Named in the skip message when no frame of the kind was seen. */
  looksAt: string;
  /** The one transport the rule applies to; on any other it is skipped. */
  transport?: TransportKind;
  inspect(e: InboundEvent, ctx: FrameContext): Finding[] | undefined;
}

/** One failing finding. */
export const failing = (message: string, extra: Partial<Finding> = {}): Finding[] => [
  { severity: 'fail', message, ...extra },
];

/** The JSON-RPC message a frame carried, if it was one. */
export const messageOf = (e: InboundEvent): Message | undefined => e.message;

/** An error that answers input whose id could not be read: its id may be absent or null (requirements §5.7). */
export function answersUnreadable(m: Message): boolean {
  const code = isObject(m.error) ? m.error.code : undefined;
  return 'error' in m && (m.id === null || !('id' in m)) && (code === -32700 || code === -32600);
}

/**
 * The request a server sent the client, with its method; undefined for any other frame. A 2026-07-28 server sends no
 * requests at all: stateless/no-server-requests judges them, so none is returned there.
 */
export function serverRequestOf(e: InboundEvent): (Message & { method: string }) | undefined {
  const m = e.message;
  if (e.kind !== 'request' || !m || typeof m.method !== 'string') return undefined;
  if (e.revision === STATELESS_REVISION || m.method.startsWith('notifications/')) return undefined;
  return m as Message & { method: string };
}
