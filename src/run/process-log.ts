// Why each server process of a run was started, and which checks used it (report.json processes.servers).
import type { ServerStart } from '../schema/generated/report.js';
import type { Session } from '../session/session.js';

interface Entry {
  for: string;
  checks: Set<string>;
  pid?: number;
  /** A run's report has it already: the auto probe's leftovers are those without. */
  listed: boolean;
}

/**
 * Kept on the session, not on a run: a session started by the auto probe, or ahead of its run, carries its entry
 * to the run that takes it. Over HTTP every session of a run points at the one server's entry.
 */
const entries = new WeakMap<Session, Entry>();

/** Enters `session` as a server process of its own, started for `why`. */
export function started(session: Session, why: string): void {
  entries.set(session, {
    for: why,
    checks: new Set(),
    listed: false,
    ...(session.transport.pid !== undefined && { pid: session.transport.pid }),
  });
}

/** `session` runs on `server`'s process (over HTTP, the one the run started): its uses count there. */
export function sharesProcessOf(session: Session, server: Session): void {
  const entry = entries.get(server);
  if (entry) entries.set(session, entry);
}

/** A session started ahead (or by the auto probe), now taken `as` (its why then): both are told. */
export function taken(session: Session, as: string): Session {
  const entry = entries.get(session);
  if (entry?.for === STARTED_AHEAD || entry?.for === AUTO_PROBE) entry.for = `${entry.for}, taken as ${as}`;
  return session;
}

/** Notes that `check` used `session`'s process (once per check). */
export function used(session: Session, check: string): void {
  entries.get(session)?.checks.add(check);
}

/** The processes of `sessions`, each once, in order; marked listed. `revision` is the run's. */
export function serversOf(sessions: readonly Session[], revision?: string): ServerStart[] {
  const seen = new Set<Entry>();
  for (const s of sessions) {
    const entry = entries.get(s);
    if (entry && !entry.listed) seen.add(entry);
  }
  return [...seen].map((entry) => {
    entry.listed = true;
    return {
      for: entry.for,
      checks: [...entry.checks],
      ...(revision !== undefined && { revision }),
      ...(entry.pid !== undefined && { pid: entry.pid }),
    };
  });
}

export const AUTO_PROBE = 'auto probe';
export const SHARED = 'shared session';
export const STARTED_AHEAD = 'started ahead';
export const SCRATCH = 'scratch session';
export const SECOND_CONNECTION = 'second connection';
export const RESTART = 'restart after the server was lost';
export const AFTER_TURN = 'shared session again, in place of one a scratch turn killed or left disturbed';
export const freshFor = (check: string) => `fresh session for ${check}`;
export const alone = (check: string) => `alone: ${check} again on a server of its own`;
export const replacing = (check: string, how: 'killed' | 'disturbed') =>
  `${SCRATCH} replacing a session ${check} ${how}`;

/** Why a lane's scratch session was started: the lane's first, or in place of one a check's input killed or disturbed. */
export async function scratchWhy(gone?: { session: Promise<Session>; how: 'killed' | 'disturbed' }): Promise<string> {
  const old = gone && (await gone.session.catch(() => undefined));
  const check = old && [...(entries.get(old)?.checks ?? [])].at(-1);
  return check && gone ? replacing(check, gone.how) : SCRATCH;
}
