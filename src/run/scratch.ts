import type { Session } from '../session/session.js';

interface Lane {
  /** Settles when the lane's last queued turn has ended. */
  tail: Promise<void>;
  queued: number;
  /** Undefined once a turn left it dead: the next turn opens another. */
  session?: Promise<Session>;
  /** A check has used the session. */
  touched: boolean;
  /** What the session answered to the health request before its first turn (see ScratchSessions.health). */
  baseline?: Promise<string>;
  /** The session a check's input killed or disturbed, which the next one replaces (for the report, see process-log). */
  gone?: Gone;
}

export interface Gone {
  session: Promise<Session>;
  how: 'killed' | 'disturbed';
}

/** Sessions a lane opens in place of ones a check's input killed; after that, the checks left run alone. */
export const MAX_REPLACED = 4;

/**
 * Scratch sessions of a stdio run: the checks that take turns on them run in this many lines at once. A server heavy
 * to start gets none: its scratch checks take their turns on the run's shared session, once every other check is done
 * with it (each line is a process start the machine pays for, see StartGate).
 */
export const scratchLanes = (roomy: boolean) => (roomy ? 1 : 0);

/**
 * Over stdio every session costs a server process. Checks that need an initialized session apart from the other
 * checks only to keep what they send away from them (bad input, session state: CheckDef.scratch) take turns on a few
 * scratch sessions instead of starting a server each; a run lends them its shared session, once every other check is
 * done with it (the `lent` option). A check that fails on one is run again on a new server of its own, whose verdict stands,
 * so taking turns never changes a failure into a verdict of its own; unless it was the first to use a session that
 * nothing had touched but the handshake (never a lent one), as a server of its own.
 *
 * A check whose input kills the session's server is judged on that (`killed`: its verdict names its input, and it
 * does not run again alone); the lane opens another session for the next turn, MAX_REPLACED times at most. Turns
 * stop at the first check that fails (or errs) on a scratch session it leaves alive: that session may be hung or
 * broken, and a server that fails one such check often fails the next in the same slow way (waiting out timeouts),
 * which turns taken one after another would add up. The checks after it each run alone, side by side. A lent
 * session left disturbed or failing is closed too: what uses it after the turns gets a new one, not a broken one.
 */
export class ScratchSessions {
  private readonly lanes: Lane[];
  private stopped = false;
  private replaced = 0;

  /** `count` sessions are opened at once. */
  constructor(
    /** A new session, ready like the shared one (initialized), or the shared one lent. */
    private readonly open: (replacing?: Gone) => Promise<Session>,
    count: number,
    /**
     * The answer to one harmless request (a list the server declared), told as a string: asked of each session before
     * its first turn and after every turn. A session whose answer changed was disturbed by a check's input: the lane
     * gets a new one, and a warning on a session whose answer had not changed stands.
     */
    private readonly health?: (session: Session) => Promise<string>,
    /**
     * Given when the first sessions are lent, used already by other checks (the run's shared one, or its second
     * connection on the stateless wire): no check's first turn on one counts as untouched, and a session to be closed
     * is given back through `giveBack` when there is one.
     */
    private readonly lent?: { giveBack?: (session: Session) => void },
  ) {
    this.lanes = Array.from({ length: count }, () => {
      const lane = this.fresh({ tail: Promise.resolve(), queued: 0, touched: false });
      lane.touched = lent !== undefined;
      return lane;
    });
  }

  /** The lane with a new session, and that session's health answer asked for once it is ready. */
  private fresh(lane: Lane): Lane {
    const session = this.open(lane.gone);
    session.catch(() => {}); // a failed start is reported to the check that takes it
    lane.session = session;
    lane.touched = false;
    lane.baseline = this.health && session.then(this.health, () => 'not started');
    lane.baseline?.catch(() => {});
    return lane;
  }

  /**
   * Runs `use` when a scratch session is free, with that session to itself; `keep` says whether the turns may go on
   * after its result. `untouched`: no check had used the session before. Undefined when turns have stopped: the check
   * is to run alone.
   */
  async turn<T>(
    use: (session: () => Promise<Session>) => Promise<T>,
    keep: (result: T) => boolean,
  ): Promise<{ result: T; untouched: boolean; killed: boolean; checked: boolean } | undefined> {
    const lane = this.lanes.reduce((a, b) => (b.queued < a.queued ? b : a));
    lane.queued++;
    const previous = lane.tail;
    let done!: () => void;
    lane.tail = new Promise((resolve) => (done = resolve));
    await previous;
    try {
      if (this.stopped) return undefined;
      if (!lane.session) {
        if (this.replaced >= MAX_REPLACED) return undefined;
        this.replaced++;
        this.fresh(lane);
      }
      const session = lane.session!;
      // A session that could not be had (a lent one whose server is lost for good): the check runs alone.
      if (
        !(await session.then(
          (s) => s.alive,
          () => false,
        ))
      ) {
        this.stopped = true;
        return undefined;
      }
      const untouched = !lane.touched;
      // Every turn after the first begins on a session whose health answer was the same after the turn before.
      const checked = this.health !== undefined;
      let used = false;
      const result = await use(() => ((used = lane.touched = true), session)).catch((err: unknown) => {
        if (used) this.stopped = true;
        throw err;
      });
      const alive = await session.then(
        (s) => s.alive,
        () => false,
      );
      // A session that died during the turn died of this check's input (it was alive when the turn began).
      const killed = used && !alive;
      if (killed) [lane.session, lane.gone] = [undefined, { session, how: 'killed' }];
      else if (used && !keep(result)) {
        this.stopped = true;
        if (this.lent?.giveBack) this.close(lane, session, 'disturbed');
      } else if (used && (await this.disturbed(lane, await session))) {
        // Disturbed, not killed: closed, and the next turn gets a new session (MAX_REPLACED counts these too).
        this.close(lane, session, 'disturbed');
      }
      return { result, untouched, killed, checked };
    } finally {
      lane.queued--;
      done();
    }
  }

  private close(lane: Lane, session: Promise<Session>, how: Gone['how']): void {
    [lane.session, lane.gone] = [undefined, { session, how }];
    void session.then((s) => {
      if (this.lent?.giveBack) this.lent.giveBack(s);
      else void s.close();
    });
  }

  /** The session no longer answers its health request as it did before its first turn. */
  private async disturbed(lane: Lane, session: Session): Promise<boolean> {
    if (!this.health || !lane.baseline) return false;
    const [before, now] = await Promise.all([lane.baseline, this.health(session).catch(() => 'no answer')]);
    return before !== now;
  }
}
