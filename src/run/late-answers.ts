import type { CheckResult, TranscriptEntry } from '../schema/generated/report.js';
import { type Exchange, seconds, type Session } from '../session/session.js';

/** Late answers named in a check's message; the transcript holds them all. */
const MAX_NOTED = 3;

/**
 * Notes on each check the answers that came after its requests had timed out: a check's transcript holds the
 * requests it sent, and a late answer belongs to the check whose request it was (never an unsolicited response).
 * The verdict stands (the check ended at the timeout), but for a check that failed for silence only (`silent`, by
 * check id): when each of those requests was answered after all, within one more --timeout of timing out, the server
 * broke no MUST, and it warns.
 */
export function noteLateAnswers(
  results: CheckResult[],
  sessions: Session[],
  silent: ReadonlyMap<string, Exchange[]>,
): void {
  const late = new Map<TranscriptEntry, Exchange>();
  for (const s of sessions) for (const e of s.lateAnswers) late.set(e.sent, e);
  if (late.size === 0) return;
  for (const r of results) {
    const answered = (r.transcript ?? []).flatMap((entry) => late.get(entry) ?? []);
    if (answered.length === 0) continue;
    const notes = answered
      .slice(0, MAX_NOTED)
      .map(
        (e) =>
          `${e.method} (id ${JSON.stringify(e.id)}) answered after ${seconds(e.late!.afterMs)}${e.late!.inGrace ? '' : ' (more than one --timeout after it timed out: still silence)'}`,
      );
    const more = answered.length > MAX_NOTED ? ` and ${answered.length - MAX_NOTED} more` : '';
    r.message += `\nlate answer (after the timeout): ${notes.join('; ')}${more}`;
    r.transcript = [...r.transcript!, ...answered.map((e) => e.late!.entry)];
    if (r.status === 'fail' && silent.get(r.id)?.every((e) => e.late?.inGrace)) {
      r.status = 'warn';
      r.message +=
        '\nanswered, but late: a request that needs no slow work should be answered within --timeout (a loaded machine, or a server busy with slow work?)';
    }
  }
}
