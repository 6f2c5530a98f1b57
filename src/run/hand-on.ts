// Sessions a check leaves to the one after it, over stdio a server start fewer each.
import type { Session } from '../session/session.js';

/**
 * A check whose own session ends in the state another check starts from hands it on, when it passed and the session
 * lives: `ping` before initialize leaves the server uninitialized, as the notification case needs it (it initializes
 * first); that case leaves an initialized session that has only been sent notifications a server must ignore (which
 * its pass shows it did), as the cancellation needs one. A giver that did not pass, or whose server was lost, hands
 * on nothing, and its taker starts its own as before: a verdict never rests on a session a failure left behind.
 */
export const HAND_ON: readonly { from: string; to: string; initialized: boolean }[] = [
  { from: 'lifecycle/ping/before-initialize', to: 'base/notification/no-response', initialized: false },
  { from: 'base/notification/no-response', to: 'cancellation/request/no-response', initialized: true },
];

/** The pairs of HAND_ON whose two checks both run (ids of the checks that apply to the run). */
export const handOnPairs = (applies: Iterable<string>) => {
  const ids = new Set(applies);
  return HAND_ON.filter((p) => ids.has(p.from) && ids.has(p.to));
};

/** The sessions handed on in one run: each taker waits for its giver's, or for word that there is none. */
export class HandOn {
  private readonly given = new Map<string, { session: Promise<Session | undefined>; give: (s?: Session) => void }>();

  constructor(private readonly pairs: readonly { from: string; to: string; initialized: boolean }[]) {
    for (const p of pairs) {
      let give!: (s?: Session) => void;
      const session = new Promise<Session | undefined>((resolve) => (give = resolve));
      this.given.set(p.to, { session, give });
    }
  }

  /** Whether `id` hands its session on to a check that runs. */
  gives(id: string): boolean {
    return this.pairs.some((p) => p.from === id);
  }

  /** Hands `session` on from `id` (undefined: none, the taker starts its own). Only the first word counts. */
  give(id: string, session?: Session): void {
    const pair = this.pairs.find((p) => p.from === id);
    if (pair) this.given.get(pair.to)!.give(session);
  }

  /** The session handed on to `id`, once its giver has ended; undefined when there is none, or `id` takes none in that state. */
  async take(id: string, initialized: boolean): Promise<Session | undefined> {
    const pair = this.pairs.find((p) => p.to === id && p.initialized === initialized);
    if (!pair) return undefined;
    const entry = this.given.get(id)!;
    const handed = entry.session;
    // Taken once: a second ask is for a session of its own.
    entry.session = Promise.resolve(undefined);
    const session = await handed;
    return session?.alive ? session : undefined;
  }
}
