// One check run once: the context it is given, the budget and interruption it races, and the verdict on what it threw.
import { timeoutVerdict } from '../checks/kit/timeouts.js';
import type { CheckContext, CheckDef, Outcome } from '../checks/kit/check.js';
import { initialize, type ListsWalked, schemaRevision, versionIn, walkLists } from '../discovery/discover.js';
import type { ServerProfile } from '../discovery/profile.js';
import type { CheckResult, TranscriptEntry } from '../schema/generated/report.js';
import { STATELESS_REVISION } from '../schema/revisions.js';
import { type Exchange, RequestTimeout, type Session, SessionClosed } from '../session/session.js';
import { bounded } from '../json.js';
import { checkResult } from './result.js';
import type { HandOn } from './hand-on.js';
import type { ScratchSessions } from './scratch.js';
import { processStory, type SharedServer } from './shared-server.js';
import { alone, freshFor, SECOND_CONNECTION, used } from './process-log.js';

/** The run's whole budget (--budget) was spent before the check finished. */
export class BudgetSpent extends Error {}
/** The run was interrupted (Ctrl-C, SIGTERM) before the check finished. */
export class Interrupted extends Error {}

/** What the generated checks (properties) and the authorization checks take from the run's options. */
export type Generation = Pick<CheckContext, 'seed' | 'runs' | 'toolCalls' | 'slowTools' | 'replay' | 'issuer'>;

/** What every check of a run shares. */
export interface RunState {
  profile: ServerProfile;
  shared: SharedServer;
  /** A new session; `why` it is started, for the report (see process-log). */
  open: (why: string) => Promise<Session>;
  /** Stdio runs only. */
  scratch?: ScratchSessions;
  /** How many scratch sessions a stdio run opens (see scratchLanes); none: the shared one is lent to the turns. */
  scratchLanes: number;
  /** Sessions of checks that failed for silence, listening for late answers before they close (see attempt). */
  settling: Promise<unknown>[];
  memo: Map<string, Promise<unknown>>;
  timeoutMs: number;
  deadline: number;
  interruption: Promise<never>;
  generation: Generation;
  /** Checks whose request on the shared session was cut off by the loss of its server. */
  lostWaiting: Set<string>;
  /** Checks that failed for silence only, and the requests left unanswered (see Outcome.silent). */
  silent: Map<string, Exchange[]>;
  /** A check ended because the run's budget was spent: the run is marked interrupted. */
  budgetSpent: boolean;
  /** Over stdio, the sessions checks hand on to the ones after them (see HAND_ON). */
  handOn?: HandOn;
  /** The run's second connection on the stateless wire, once opened (see CheckContext.elsewhere); the run closes it. */
  elsewhere?: Promise<{ session: Session; lists: ListsWalked }>;
}

/** A new session on the shared one's wire, not yet initialized: the stateless wire needs no handshake, only the protocol fields. */
export async function freshOn({ open, shared }: Pick<RunState, 'open' | 'shared'>, why: string): Promise<Session> {
  const s = await open(why);
  if (shared.session.requestMeta) {
    s.requestMeta = shared.session.requestMeta;
    s.revision = shared.session.revision;
    s.paramHeaders = shared.session.paramHeaders;
  }
  return s;
}

/** Initializes a session, on the stateless wire as it is, with the version discovery negotiated: ready like the shared session. */
export async function ready(session: Session, profile: ServerProfile): Promise<Session> {
  if (profile.revision === STATELESS_REVISION) return session;
  await initializeAs(session, profile.protocolVersion);
  session.notify('notifications/initialized');
  return session;
}

/** initialize, and the schema revision of the version the server answered with. */
async function initializeAs(session: Session, protocolVersion: string) {
  const reply = await initialize(session, protocolVersion);
  session.revision = schemaRevision(versionIn(reply) ?? protocolVersion);
  return reply;
}

/**
 * The slow tools a check sees: those found slow before its attempt started, and those it finds itself (which attempts
 * started later see too). A check that began before a tool was found slow goes on as it began, so the tools it leaves
 * out depend on when it started (the first turns of a run, for most), not on how long it took on a loaded machine.
 */
function slowToolsAt(run: Map<string, string>): Map<string, string> {
  const view = new Map(run);
  const keep = view.set.bind(view);
  view.set = (tool, why) => {
    run.set(tool, why);
    return keep(tool, why);
  };
  return view;
}

/** Runs a check once; `scratch` gives it the session its ownSession() returns; `again`: its run alone after a scratch turn. */
export async function attempt(
  def: CheckDef,
  state: RunState,
  scratch?: () => Promise<Session>,
  again = false,
): Promise<CheckResult> {
  const { profile, shared, memo, timeoutMs, deadline, interruption, generation } = state;
  const t = performance.now();
  const excerpt: TranscriptEntry[] = [];
  const fresh: Session[] = [];
  let scratched: { session: Session; from: number } | undefined;
  let elsewhere: { session: Session; from: number } | undefined;
  /** The session a check before this one handed on to it (see HAND_ON), from where this one began. */
  let handed: { session: Session; from: number } | undefined;
  const takeHanded = async (initialized: boolean) => {
    const session = await state.handOn?.take(def.id, initialized);
    if (!session) return undefined;
    handed = { session, from: session.transcript.length };
    used(session, def.id);
    // Frames are judged by the revision of the version it was initialized with, as on a session made ready here.
    if (initialized) session.revision ??= profile.revision;
    return session;
  };
  /** The shared server was lost while this attempt waited on it (what the check made of that is its outcome). */
  let waitedOnLost = false;
  const ctx: CheckContext = {
    ...generation,
    slowTools: slowToolsAt(generation.slowTools),
    profile,
    timeoutMs,
    async request(method, params, opts) {
      const reply = await shared.request(method, params, opts).catch((err: unknown) => {
        // The request stays in the excerpt: an answer that comes after the timeout is noted on this check.
        if (err instanceof RequestTimeout && err.exchange) excerpt.push(err.exchange.sent);
        if (err instanceof SessionClosed) {
          state.lostWaiting.add(def.id);
          waitedOnLost = true;
        }
        throw err;
      });
      excerpt.push(reply.sent, reply.entry);
      used(shared.session, def.id);
      return reply;
    },
    async fresh() {
      const given = await takeHanded(false);
      if (given) return given;
      const s = await freshOn(state, again ? alone(def.id) : freshFor(def.id));
      used(s, def.id);
      fresh.push(s);
      return s;
    },
    async ownSession() {
      if (!scratch) return (await takeHanded(true)) ?? ready(await ctx.fresh(), profile);
      const session = await scratch();
      used(session, def.id);
      scratched = { session, from: session.transcript.length };
      return session;
    },
    async elsewhere() {
      state.elsewhere ??= freshOn(state, SECOND_CONNECTION).then(async (session) => ({
        session,
        lists: await walkLists(session, profile),
      }));
      const second = await state.elsewhere;
      elsewhere ??= { session: second.session, from: second.session.transcript.length };
      used(second.session, def.id);
      return second;
    },
    initialize: initializeAs,
    readFrom: (session) => used(session, def.id),
    memo: (key, fn) => {
      if (!memo.has(key)) memo.set(key, fn());
      return memo.get(key) as never;
    },
    async closeShared() {
      const { session, exit } = await shared.close();
      used(session, def.id);
      // The process's own story (spawn, stderr, signals, exit) is this check's transcript.
      excerpt.push(...processStory(session));
      return exit;
    },
    stderrTail: () => shared.session.transport.stderrTail(),
    serverLosses: () => shared.losses,
  };
  let outcome: Outcome | { status: 'error'; message: string } | undefined;
  /** The session this check hands on, kept open. */
  let handing: Session | undefined;
  /** The check ended because its server went away. */
  let lost = false;
  try {
    const left = deadline - performance.now();
    if (left <= 0) throw new BudgetSpent();
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new BudgetSpent()), left)));
    try {
      outcome = await Promise.race([def.run(ctx), budget, interruption]);
    } finally {
      clearTimeout(timer);
    }
  } catch (err) {
    if (err instanceof BudgetSpent) state.budgetSpent = true;
    outcome = judgeThrown(err as Error, shared.session.transport.stderrTail(), profile);
    lost = err instanceof SessionClosed;
  } finally {
    // A check that failed for silence leaves its sessions listening for one more --timeout, over every transport,
    // without waiting on them: a late answer counts within that window only (Exchange.late.inGrace), so "late" or
    // "silent" never depends on when a session happened to close. The run ends once they are closed.
    // Only a failure for silence waits for a late answer (a case that takes silence for an answer has judged it).
    const mine = [...fresh, ...(handed ? [handed.session] : [])];
    // A check that passed on its one session, still alive, hands it on rather than closing it (see HAND_ON).
    if (state.handOn?.gives(def.id) && outcome?.status === 'pass' && mine.length === 1 && mine[0].alive)
      handing = mine.pop();
    const silent = outcome?.status === 'fail' && 'silent' in outcome ? outcome.silent : undefined;
    if (!silent || silent.every((e) => e.late)) await Promise.all(mine.map((s) => s.close()));
    else state.settling.push(...mine.map((s) => s.lateGrace(silent, timeoutMs).then(() => s.close())));
  }
  // The last attempt's: a check that runs again alone keeps that verdict.
  if (outcome.status === 'fail' && 'silent' in outcome && outcome.silent) state.silent.set(def.id, outcome.silent);
  else state.silent.delete(def.id);
  // Silence or the server's exit is all this check found: judged at its own level (a SHOULD check warns).
  // A check that waited on the shared server when it was lost is judged so too, whatever it made of the loss (a
  // property's "stopped answering", a case step's closed session): which checks were waiting is a matter of timing.
  if (
    outcome.status === 'fail' &&
    def.requirement.level !== 'MUST' &&
    (lost || waitedOnLost || ('silent' in outcome && outcome.silent))
  )
    outcome = { ...outcome, status: 'warn' };
  const own = [
    ...fresh.flatMap((s) => s.transcript.entries),
    ...(scratched ? scratched.session.transcript.slice(scratched.from) : []),
    ...(elsewhere ? elsewhere.session.transcript.slice(elsewhere.from) : []),
    ...(handed ? handed.session.transcript.slice(handed.from) : []),
  ];
  // Handed on once its transcript is taken: what the next check sends there is that one's.
  if (state.handOn?.gives(def.id)) state.handOn.give(def.id, handing);
  const entries = ('transcript' in outcome && outcome.transcript) || (own.length > 0 ? own : excerpt);
  // Results live to the end of the run: they keep the evidence, not a server's multi-megabyte payloads.
  const bound = (v: unknown) => (v === undefined ? undefined : bounded(v));
  const expected = 'expected' in outcome ? bound(outcome.expected) : undefined;
  const actual = 'actual' in outcome ? bound(outcome.actual) : undefined;
  return checkResult(
    def,
    { status: outcome.status, message: outcome.message, expected, actual },
    Math.round(performance.now() - t),
    entries,
  );
}

/** A server that dies has failed the check, one that does not answer as what was asked says; anything else thrown is the harness's fault. */
function judgeThrown(
  err: Error,
  stderr: string,
  profile: ServerProfile,
): Outcome | { status: 'error'; message: string } {
  if (err instanceof BudgetSpent) return { status: 'error', message: 'run budget spent before this check finished' };
  if (err instanceof Interrupted) return { status: 'error', message: 'run interrupted before this check finished' };
  // What the server last wrote to stderr often says why it hung or died: a lost session's own tail, since the
  // shared one may have been restarted.
  if (err instanceof SessionClosed && err.stderr !== undefined) stderr = err.stderr;
  const tail = stderr ? `\nserver stderr:\n${stderr}` : '';
  if (err instanceof RequestTimeout) {
    const verdict = timeoutVerdict(profile, err);
    return { ...verdict, message: verdict.message + tail };
  }
  if (err instanceof SessionClosed) return { status: 'fail', message: err.message + tail };
  return { status: 'error', message: `harness error: ${err.stack ?? err.message}` };
}
