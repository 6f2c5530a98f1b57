// The server starts of a run, told beside its critical path (--verbose, the HTML header): how many, and what for.
import type { Report } from '../schema/generated/report.js';

/** Check ids shown per process before `+N more`. */
const SHOWN = 3;

/**
 * `14 server starts`, when the run started any: those listed, when they are (of one revision of several, its own;
 * processes.started counts the run beside it too).
 */
export function startsCount({ processes: p }: Report): string | undefined {
  const n = p?.servers?.length ?? p?.started ?? 0;
  return n === 0 ? undefined : `${n} server start${n === 1 ? '' : 's'}`;
}

/** One line per process the run started: its revision (of several), why, and the checks that used it, the first few. */
export function serverLines({ processes: p }: Report): string[] {
  return (p?.servers ?? []).map((s) => {
    const shown = s.checks.slice(0, SHOWN).join(', ');
    const more = s.checks.length > SHOWN ? `, +${s.checks.length - SHOWN} more` : '';
    return `${s.revision && p?.servers?.some((o) => o.revision !== s.revision) ? `${s.revision} ` : ''}${s.for}${shown ? `: ${shown}${more}` : ''}`;
  });
}
