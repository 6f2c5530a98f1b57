import type { Session } from '../session/session.js';

/** Scratch sessions of a stdio run: the checks that take turns on them run in this many lines at once. */
export const SCRATCH_SESSIONS = 2;

interface Lane {
  /** Settles when the lane's last queued turn has ended. */
  tail: Promise<void>;
  queued: number;
  session?: Promise<Session>;
}

/**
 * Over stdio every session costs a server process. Checks that need an initialized session apart from the shared one
 * only to keep what they send away from it (bad input, session state: CheckDef.scratch) take turns on a few scratch
 * sessions instead of starting a server each. A check that does not pass on one is run again on a new server of its
 * own, whose verdict stands, so taking turns never changes a verdict.
 */
export class ScratchSessions {
  private readonly lanes: Lane[];

  /** `count` sessions are opened at once, before the checks that open servers of their own take the pre-started ones. */
  constructor(
    /** A new session, ready like the shared one (initialized). */
    private readonly open: () => Promise<Session>,
    count: number,
  ) {
    this.lanes = Array.from({ length: count }, () => ({ tail: Promise.resolve(), queued: 0, session: this.start() }));
  }

  /**
   * Runs `use` when a scratch session is free, with that session to itself (opened on first use: `use` may not need
   * one). The session serves the next turn only when `keep` says so of the result, and the server is still alive.
   */
  async turn<T>(use: (session: () => Promise<Session>) => Promise<T>, keep: (result: T) => boolean): Promise<T> {
    const lane = this.lanes.reduce((a, b) => (b.queued < a.queued ? b : a));
    lane.queued++;
    const previous = lane.tail;
    let done!: () => void;
    lane.tail = new Promise((resolve) => (done = resolve));
    await previous;
    let used = false;
    const session = () => {
      used = true;
      lane.session ??= this.start();
      return lane.session;
    };
    try {
      const result = await use(session);
      if (used && !keep(result)) this.drop(lane);
      return result;
    } catch (err) {
      if (used) this.drop(lane);
      throw err;
    } finally {
      if (lane.session && !(await lane.session.then((s) => s.alive, () => false))) lane.session = undefined;
      lane.queued--;
      done();
    }
  }

  private start(): Promise<Session> {
    const session = this.open();
    session.catch(() => {}); // a failed start is reported to the check that takes it
    return session;
  }

  /** Closes a lane's session (in the background: the runner waits for every session at the end) and forgets it. */
  private drop(lane: Lane): void {
    void lane.session?.then((s) => s.close(), () => undefined);
    lane.session = undefined;
  }
}
