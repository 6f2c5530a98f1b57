import { PROCESS_ALIVE } from '../checks/lifecycle/checks.js';
import type { CheckResult } from '../schema/generated/report.js';

/**
 * Marks the checks that failed because the shared server was lost while they waited on it (`waited`: their ids):
 * they name the check that reports the loss, so a reader fixes that first cause first.
 */
export function noteCause(results: CheckResult[], waited: ReadonlySet<string>): void {
  const cause = results.find((r) => r.id === PROCESS_ALIVE && r.status === 'fail');
  if (!cause) return;
  for (const r of results) {
    if (r === cause || !waited.has(r.id) || (r.status !== 'fail' && r.status !== 'warn' && r.status !== 'error'))
      continue;
    r.after = cause.id;
    r.message += `\nafter: ${cause.id} (the shared server was lost while this check waited on it; fix that first)`;
  }
}
