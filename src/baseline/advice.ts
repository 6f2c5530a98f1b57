import { visible } from '../report/text.js';
import type { CheckResult, Report } from '../schema/generated/report.js';
import type { Baseline, BaselineEntry } from './baseline.js';
import { failsDifferently, isExpectedFailure, isStale } from './status.js';

/** The reason written for a failure to add: the first line of what went wrong, for the user to turn into a why. */
const reasonFor = (c: CheckResult) => JSON.stringify(firstLine(c.message).slice(0, 100));

export const firstLine = (message: string): string => message.split(/\r\n|\r|\n/)[0];

/**
 * What the console says about the baseline after a run: counts, then the exact lines to remove from the file (stale
 * entries) and to add to it (failures it does not list), in the file's own shape. `partial` (a shard) does not
 * mention entries that match nothing, since they may match checks of another shard.
 */
export function baselineAdvice(report: Pick<Report, 'checks'>, baseline: Baseline, partial: boolean): string {
  const { checks } = report;
  const file = visible(baseline.file);
  const listed = (e: BaselineEntry) => checks.filter((c) => c.baseline?.entry === e.pattern);
  const stale = baseline.entries.filter((e) => listed(e).some(isStale));
  const unexpected = checks.filter((c) => c.status === 'fail' && c.baseline === undefined);
  const unmatched = partial ? [] : baseline.entries.filter((e) => listed(e).length === 0);
  const different = checks.filter(failsDifferently);

  const out = [
    `expected failures (${file}): ${checks.filter(isExpectedFailure).length} expected, ${checks.filter(isStale).length} stale, ${unexpected.length} unexpected, ${different.length} failing for another reason`,
  ];
  for (const c of different) {
    out.push(
      '',
      `${visible(c.id)} ${c.status === 'fail' ? 'fails' : 'warns'} for another reason than ${visible(c.baseline!.entry)} expects: fix it, or change the entry's message:`,
    );
    out.push(`  expected  ${visible(c.baseline!.message ?? '')}`, `  actual    ${visible(firstLine(c.message))}`);
  }
  for (const e of stale) {
    // A glob that still covers failures is narrowed to them; anything else goes.
    const still = e.pattern.includes('*') ? listed(e).filter(isExpectedFailure) : [];
    const passing = listed(e)
      .filter(isStale)
      .map((c) => c.id);
    const now = `${passing.join(', ')} pass${passing.length === 1 ? 'es' : ''} now`;
    out.push(
      '',
      `${file}: ${visible(e.pattern)} is stale (${now}); ${still.length > 0 ? 'replace' : 'remove'} ${where(e)}`,
    );
    out.push(...quote(e));
    if (still.length > 0)
      out.push(
        'with:',
        ...still.flatMap((c) =>
          entryLines(baseline, c.id, e.reason === undefined ? undefined : JSON.stringify(e.reason)),
        ),
      );
  }
  for (const e of unmatched)
    out.push(
      '',
      `${file}: ${visible(e.pattern)} matches no check in this run (renamed or removed?); remove ${where(e)}`,
      ...quote(e),
    );
  if (unexpected.length > 0) {
    out.push(
      '',
      `${unexpected.length} failure(s) not in ${file}: fix them, or add${baseline.shape === 'server' ? ' under server:' : ':'}`,
    );
    out.push(...unexpected.flatMap((c) => entryLines(baseline, c.id, reasonFor(c))));
  }
  return `${out.join('\n')}\n`;

  function where(e: BaselineEntry): string {
    // Entries on one line (a flow list) cannot be removed line by line.
    const shared = baseline.entries.some((o) => o !== e && o.first <= e.last && o.last >= e.first);
    if (shared) return `${visible(e.pattern)} from line ${e.first}:`;
    return e.first === e.last ? `line ${e.first}:` : `lines ${e.first}-${e.last}:`;
  }
  function quote(e: BaselineEntry): string[] {
    return baseline.lines.slice(e.first - 1, e.last).map(visible);
  }
}

/** One entry as the file's shape writes it. */
function entryLines(baseline: Baseline, id: string, reason: string | undefined): string[] {
  if (baseline.shape === 'server') return [`  - ${id}`];
  return [`- id: ${id}`, ...(reason === undefined ? [] : [`  reason: ${visible(reason)}`])];
}
