// The shape of a passive check, apart from the list of all of them (frame-rules.ts), which imports the rule modules.
import type { Requirement } from '../schema/generated/report.js';
import type { InboundEvent } from '../session/session.js';
import type { TransportKind } from '../transport/transport.js';

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
