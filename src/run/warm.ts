// Sessions started before their run: what they receive meanwhile is kept for the run's frame rules.
import type { InboundEvent, Session } from '../session/session.js';

/** Fresh stdio sessions started ahead, at most, while the auto probe or discovery runs (a default run takes seven or more: version probes, uninitialized cases, scratch sessions). */
export const FRESH_POOL = 4;

/** A session started before its run, and what it received until the run took it. */
export interface Warm {
  session: Session;
  /** Stops keeping what the session receives, and returns what it kept: the run's frame rules judge that too. */
  earlier(): InboundEvent[];
}

/** Keeps what `session` receives until the run takes it. */
export function keepInbound(session: Session): Warm {
  let kept: InboundEvent[] | undefined = [];
  session.onInbound((e) => kept?.push(e));
  return {
    session,
    earlier: () => {
      const earlier = kept ?? [];
      kept = undefined;
      return earlier;
    },
  };
}
