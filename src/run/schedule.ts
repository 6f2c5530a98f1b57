// The order the checks of a run go in: which run at once, which on scratch sessions, which last, one at a time.
import { unmetRequirement } from '../checks/cases/requires.js';
import { profileView } from '../checks/cases/profile-view.js';
import { type CheckDef, skip, wrongRevision, wrongTransport } from '../checks/kit/check.js';
import { citing } from '../checks/kit/requirement.js';
import type { CheckResult } from '../schema/generated/report.js';
import { type TransportKind, overStdio } from '../transport/transport.js';
import { attempt, ready, freshOn, type RunState } from './attempt.js';
import { HandOn, handOnPairs } from './hand-on.js';
import { ScratchSessions } from './scratch.js';
import { scratchWhy } from './process-log.js';
import { type OnProgress, progressTracker } from './progress.js';
import { notRun } from './result.js';
import type { Session } from '../session/session.js';
import type { ServerProfile } from '../discovery/profile.js';
import { STATELESS_REVISION } from '../schema/revisions.js';
import { isObject } from '../json.js';

/** An era the auto probe left out, because the server said it does not speak it, and why. */
export interface EraLeftOut {
  revision: string;
  reason: string;
}

/** Why a check does not apply to a run of this transport and revision; undefined when it does. */
export const elsewhere = (def: CheckDef, kind: TransportKind, revision: string) =>
  wrongTransport(def.transport, kind, def.offTransport, def.needsProcess) ?? wrongRevision(def.revisions, revision);

/**
 * The check itself, or, when it is made for another transport or revision than the run's (for an era the server said
 * it does not speak, that reason) or asks for what the server does not offer (`requires`), a stand-in that skips with
 * the reason, taking no scratch turn. `view`: the profile as cases see it.
 */
function applicable(
  def: CheckDef,
  kind: TransportKind,
  revision: string,
  view: Record<string, unknown>,
  leftOut?: EraLeftOut,
): CheckDef {
  const other = elsewhere(def, kind, revision);
  const why =
    (other && leftOut && def.revisions?.includes(leftOut.revision) ? leftOut.reason : other) ??
    unmetRequirement(def.requires, view);
  return why ? { ...def, scratch: false, run: async () => skip(why) } : def;
}

/**
 * Runs `checks` against the discovered server; their results in the order of `checks`. `locked`: the server wants a
 * token the run lacks, so only the authorization area runs and the others skip with this reason.
 */
export async function runChecks(
  checks: CheckDef[],
  state: RunState,
  kind: TransportKind,
  eraLeftOut?: EraLeftOut,
  locked?: string,
  onProgress?: OnProgress,
): Promise<CheckResult[]> {
  const { profile } = state;
  const applies = (c: CheckDef) => elsewhere(c, kind, profile.revision) === undefined;
  // Over stdio, where a session is a server process, scratch checks take turns on one session (see ScratchSessions).
  // On the stateless wire, one: the run's second connection, once the checks that use it are done (a process started
  // anyway; they are quick, so the turns overlap the slow work on the shared session). On the initialize wire, a light
  // server's one of its own; a heavy one's shared session, once every other check is done with it.
  const scratchers = overStdio(kind) ? checks.filter((c) => c.scratch && applies(c)) : [];
  const stateless = profile.revision === STATELESS_REVISION;
  const lent = new Set(!stateless && state.scratchLanes === 0 ? scratchers : []);
  const secondDone = deferred();
  if (scratchers.length > 0 && lent.size === 0) {
    let secondTaken = !stateless;
    state.scratch = new ScratchSessions(
      async (gone) => {
        if (!secondTaken) {
          secondTaken = true;
          await secondDone.promise;
          const second = await state.elsewhere?.catch(() => undefined);
          if (second?.session.alive) return second.session;
        }
        return ready(await freshOn(state, await scratchWhy(gone)), profile);
      },
      stateless ? 1 : Math.min(state.scratchLanes, scratchers.length),
      (session) => healthAnswer(session, profile),
      stateless ? {} : undefined,
    );
  }
  const view = profileView(profile);
  // Over stdio, where a session is a server process, a check may hand its session on to the one after it (HAND_ON).
  if (overStdio(kind))
    state.handOn = new HandOn(
      handOnPairs(
        checks
          .filter(
            (c) =>
              !(locked && !c.id.startsWith('auth/')) &&
              elsewhere(c, kind, profile.revision) === undefined &&
              unmetRequirement(c.requires, view) === undefined,
          )
          .map((c) => c.id),
      ),
    );
  const progress = progressTracker(
    checks.map((c) => c.id),
    onProgress,
  );
  // A check made for the run's revision cites that revision's page.
  const cited = (def: CheckDef) =>
    wrongRevision(def.revisions, profile.revision)
      ? def
      : { ...def, requirement: citing(def.requirement, profile.revision) };
  const runOne = (listed: CheckDef) => {
    const def = cited(listed);
    const result =
      locked && !def.id.startsWith('auth/')
        ? Promise.resolve(notRun(def, locked))
        : runCheck(applicable(def, kind, profile.revision, view, eraLeftOut), state);
    // A giver that ended without a word (it threw) hands on nothing: its taker starts its own.
    return progress.track(
      def.id,
      result.finally(() => state.handOn?.give(def.id)),
    );
  };
  // All at once: first those that may wait on slow work (their timeout then overlaps the rest of the run), then those
  // that open sessions of their own: their servers start while the others start. Each
  // check's synchronous start (compiling schemas, generating values) can take tens of milliseconds: between two,
  // the event loop turns, so the exchanges already under way go on meanwhile. Scratch turns go in this order too:
  // case files (a few exchanges) before generated checks (a hundred values), so a case that must run again alone
  // starts early.
  const order = (c: CheckDef) => (c.slowWork ? -1 : c.fresh ? 0 : c.scratch ? (c.source !== undefined ? 1 : 2) : 3);
  /** Starts `defs` one event-loop turn apart; `all` settles with every result, `seconders` once those `marked` ended. */
  const together = (defs: CheckDef[], marked: (id: string) => boolean = () => false) => {
    const started: Promise<CheckResult>[] = [];
    const sorted = [...defs].sort((a, b) => order(a) - order(b));
    const launched = (async () => {
      for (const def of sorted) {
        started.push(runOne(def));
        await new Promise(setImmediate);
      }
    })();
    const all = launched.then(() => Promise.all(started));
    const seconders = launched.then(() =>
      Promise.allSettled(started.filter((_, i) => marked(sorted[i].id))).then(() => undefined),
    );
    return { all, seconders };
  };
  // The checks that use the stateless wire's second connection: once they are done, it is the scratch turns'.
  const seconders = new Set(stateless ? checks.filter((c) => c.elsewhere && applies(c)).map((c) => c.id) : []);
  const firstRun = together(
    checks.filter((c) => !c.last && !lent.has(c)),
    (id) => seconders.has(id),
  );
  void firstRun.seconders.then(secondDone.resolve);
  const first = await firstRun.all;
  if (lent.size > 0) {
    const { shared } = state;
    state.scratch = new ScratchSessions(
      () => shared.lend(),
      1,
      (session) => healthAnswer(session, profile),
      { giveBack: (session) => shared.giveBack(session) },
    );
    first.push(...(await together([...lent]).all));
    shared.endLending();
  }
  const last: CheckResult[] = [];
  for (const def of checks.filter((c) => c.last)) last.push(await runOne(def));
  const byId = new Map([...first, ...last].map((r) => [r.id, r]));
  return checks.map((c) => byId.get(c.id)!);
}

/** A promise and its resolve. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** The lists a scratch session's health request may be, in order of preference: the first the server declares. */
const HEALTH_LISTS = [
  ['tools', 'tools/list'],
  ['prompts', 'prompts/list'],
  ['resources', 'resources/list'],
] as const;

const healthIds = new WeakMap<Session, number>();

/**
 * A scratch session's answer to one harmless request, as a string: the first list the server declares (else ping, or
 * server/discover on the stateless wire), told by whether it was a result, and for an error by its code. An input that
 * leaves the server answering it otherwise has disturbed the session (see ScratchSessions).
 */
async function healthAnswer(session: Session, profile: ServerProfile): Promise<string> {
  const list = HEALTH_LISTS.find(([capability]) => profile.capabilities[capability] !== undefined)?.[1];
  const method = list ?? (profile.revision === STATELESS_REVISION ? 'server/discover' : 'ping');
  // Ids of their own: a check on the session that draws ids it has not used (base/response/id-types) draws the same
  // ones for a seed however many health requests the lane's turns came to.
  const n = (healthIds.get(session) ?? 0) + 1;
  healthIds.set(session, n);
  const reply = await session.request(method, {}, { id: `mcp-conformance-health-${n}` });
  const error = reply.message.error;
  return `${method}: ${error === undefined ? 'result' : `error ${JSON.stringify(isObject(error) ? error.code : error)}`}`;
}

/**
 * A scratch check takes its turn on a scratch session; when it does not pass there, it runs again on a server of its
 * own, whose verdict stands (unless it was the first check on that session: then it had one; or its input killed the
 * session, which was alive when its turn began: then that is its verdict). When the two verdicts
 * differ, the message says so: the server behaved worse after other checks' input.
 */
async function runCheck(def: CheckDef, state: RunState): Promise<CheckResult> {
  if (!def.scratch || !state.scratch) return attempt(def, state);
  const turn = await state.scratch.turn(
    (session) => attempt(def, state, session),
    (r) => r.status !== 'fail' && r.status !== 'error',
  );
  const first = turn?.result;
  // A check whose input killed the session it found alive keeps that verdict: it names the input that did. So does a
  // warning on a session that answered its health request as when it was new (one disturbed by an earlier check's
  // input is replaced before the next turn).
  if (
    turn &&
    (turn.untouched ||
      turn.killed ||
      first?.status === 'pass' ||
      first?.status === 'skip' ||
      (first?.status === 'warn' && turn.checked))
  )
    return turn.result;
  const alone = await attempt(def, state, undefined, true);
  if (!first || first.status === alone.status) return alone;
  const said = first.message.split('\n')[0];
  return {
    ...alone,
    message: `${alone.message}\n(this is its run on a server of its own; on a session where other checks had sent their input first, it gave ${first.status}: ${said})`,
  };
}
