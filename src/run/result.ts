// A check's result is built here only: what the check (or frame rule) is, and what came of it.
import type { CheckResult, Requirement, Status, TranscriptEntry } from '../schema/generated/report.js';

/** What a result names of its check: a check definition or a frame rule. */
export interface Checked {
  id: string;
  title: string;
  requirement: Requirement;
}

/** What came of a check. */
export interface Verdict {
  status: Status;
  message: string;
  expected?: unknown;
  actual?: unknown;
}

/** The result of `def`: the verdict, how long it took, and the transcript excerpt when there is one. */
export function checkResult(
  def: Checked,
  verdict: Verdict,
  durationMs: number,
  transcript?: TranscriptEntry[],
): CheckResult {
  return {
    id: def.id,
    title: def.title,
    area: def.id.split('/')[0],
    status: verdict.status,
    level: def.requirement.level,
    requirement: def.requirement,
    message: verdict.message,
    ...(verdict.expected !== undefined && { expected: verdict.expected }),
    ...(verdict.actual !== undefined && { actual: verdict.actual }),
    durationMs,
    ...(transcript !== undefined && transcript.length > 0 && { transcript }),
  };
}

/** A check that did not run, skipped with the reason. */
export const notRun = (def: Checked, message: string): CheckResult => checkResult(def, { status: 'skip', message }, 0);
