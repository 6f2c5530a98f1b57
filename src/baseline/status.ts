import type { CheckResult } from '../schema/generated/report.js';

/** A listed check that fails or warns for another reason than its entry expects: not excused. */
export const failsDifferently = (c: CheckResult): boolean =>
  c.baseline?.messageDiffers === true && (c.status === 'fail' || c.status === 'warn');

/** A check the baseline lists that failed or warned, as the baseline says it would: it does not fail the run. */
export const isExpectedFailure = (c: CheckResult): boolean =>
  c.baseline !== undefined && (c.status === 'fail' || c.status === 'warn') && !failsDifferently(c);

/** A check the baseline lists that passes: its entry is stale, and a stale entry fails the run (so baselines cannot rot). */
export const isStale = (c: CheckResult): boolean => c.baseline !== undefined && c.status === 'pass';

/** A failure the baseline does not list or lists with another message, or a stale entry. */
export const failsTheRun = (c: CheckResult): boolean =>
  c.baseline === undefined || failsDifferently(c) ? c.status === 'fail' : isStale(c);

/** What to do about a stale entry, said the same way in every report. */
export const staleAdvice = (c: CheckResult): string =>
  `passes now, but the expected-failures entry ${c.baseline?.entry} lists it: remove the entry (or narrow the glob)`;
