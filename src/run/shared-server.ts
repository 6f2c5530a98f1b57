import { setTimeout as sleep } from 'node:timers/promises';
import { backoff } from '../backoff.js';
import type { ServerLoss } from '../checks/kit/check.js';
import { handshake } from '../discovery/discover.js';
import type { TranscriptEntry } from '../schema/generated/report.js';
import { type Reply, type RequestId, type Session, SessionClosed } from '../session/session.js';
import type { ExitInfo } from '../transport/transport.js';

/** Restarts of a lost shared server per run: one that dies on every request is not restarted for ever. */
export const MAX_RESTARTS = 3;
/** The pause before the second restart, doubled before each after it (the first comes at once: one crash is no pattern). */
export const RESTART_BACKOFF_MS = 250;
const MAX_RESTART_BACKOFF_MS = 2000;

/** The process's own story in a session's transcript (spawn, stderr, signals, exit): its first entry and last 19. */
export function processStory(session: Session): TranscriptEntry[] {
  const story = session.transcript.entries.filter((e) => e.dir === 'event' || e.dir === 'stderr');
  return story.length > 20 ? [story[0], ...story.slice(-19)] : story;
}

/**
 * The run's shared, initialized session. When its server is lost mid-run (it exits, or closes its stdout) the loss
 * is recorded, and the next request starts a new server, shakes hands again with the version discovery asked for
 * (the profile from the first discovery stays) and goes on there. Requests in flight at the loss fail.
 */
export class SharedServer {
  readonly losses: ServerLoss[] = [];
  private current: Session;
  private restarts = 0;
  private restarting?: Promise<Session>;
  private spawning?: Promise<Session>;
  private closing = false;
  /** The session lent to scratch turns (see lend): its loss is the turn's check's verdict, not the run's. */
  private lent?: Session;
  /** Lent sessions given back disturbed or failing: closed, and replaced on the next request. */
  private readonly retired = new WeakSet<Session>();

  constructor(
    first: Session,
    /** A new session; `afterTurn`: in place of one a scratch turn killed or gave back (see lend). */
    private readonly open: (afterTurn: boolean) => Promise<Session>,
    private readonly protocolVersion: string,
    private readonly maxRestarts = MAX_RESTARTS,
  ) {
    this.current = first;
    this.watch(first);
  }

  /** The session requests go to now (a lost one until a request restarts it). */
  get session(): Session {
    return this.current;
  }

  async request(method: string, params?: unknown, opts?: { id?: RequestId; timeoutMs?: number }): Promise<Reply> {
    return (await this.live(method)).request(method, params, opts);
  }

  /**
   * The live session, lent to the scratch turns that run once every other check is done with it (see
   * ScratchSessions): a loss while it is lent is no loss of the run's server but what a check's input did.
   */
  async lend(): Promise<Session> {
    this.lent = await this.live('a scratch turn');
    return this.lent;
  }

  /** A lent session given back to be closed: the next request starts a new server. */
  giveBack(session: Session): void {
    this.retired.add(session);
    void session.close();
  }

  /** The scratch turns are over: a loss from now on is the run's again. */
  endLending(): void {
    this.lent = undefined;
  }

  /** Shuts the server down on purpose (restarting a lost one first, so the shutdown is tested on a live server). */
  async close(): Promise<{ session: Session; exit: ExitInfo }> {
    const session = await this.live('shutdown').catch(() => this.current);
    this.closing = true;
    return { session, exit: await session.close() };
  }

  /** No restart starts after this; one being spawned is waited for, so that the runner closes it with the rest. */
  async settle(): Promise<void> {
    this.closing = true;
    await this.spawning?.catch(() => {});
  }

  /** The live session; a lost one while restarts remain is replaced first. */
  private async live(method: string): Promise<Session> {
    const usable = this.current.alive && !this.retired.has(this.current);
    if (usable || this.closing || this.restarts >= this.maxRestarts) return this.current;
    this.restarting ??= this.restart().finally(() => (this.restarting = undefined));
    try {
      return await this.restarting;
    } catch (err) {
      throw new SessionClosed(
        method,
        `the server was lost and could not be restarted: ${(err as Error).message}`,
        this.current.transport.stderrTail(),
      );
    }
  }

  private async restart(): Promise<Session> {
    if (this.restarts > 0) await sleep(backoff(this.restarts - 1, RESTART_BACKOFF_MS, MAX_RESTART_BACKOFF_MS));
    // The run ended during the pause: no server is started that nothing would stop.
    if (this.closing) throw new Error('the run is ending');
    this.restarts++;
    // A lent session a scratch turn killed or gave back is replaced for that, not for a loss of the run's server.
    const session = await (this.spawning = this.open(this.retired.has(this.current) || this.current === this.lent));
    this.watch(session);
    await handshake(session, this.protocolVersion);
    this.current = session;
    return session;
  }

  private watch(session: Session): void {
    session.onLost((why, pending) => {
      if (session === this.lent) return;
      this.losses.push({
        why,
        pending: pending.map((e) => `${e.method} (id ${JSON.stringify(e.id)})`),
        stderr: session.transport.stderrTail(),
        transcript: [...processStory(session), ...pending.map((e) => e.sent)].sort((a, b) => a.seq - b.seq),
      });
    });
  }
}
