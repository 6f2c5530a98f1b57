import type { CheckResult, Report, Status } from '../schema/generated/report.js';
import { type Inapplicable, inapplicable } from '../skip-reason.js';
import { WORST_FIRST, acrossSides, byRevision, type Side } from './side-by-side.js';
import { STATUSES, formatTotals, groupByArea, peerOf, summarize, testedNothing, verdict } from './summary.js';
import { duration, visible, withoutRevision, wrap } from './text.js';
import { triad } from './triad.js';

export interface ConsoleOptions {
  color: boolean;
  /** Also list passing and skipped checks, and show whole transcripts. */
  verbose?: boolean;
  /** A run that tested nothing may pass (--allow-empty). */
  allowEmpty?: boolean;
  /** Paths of the reports written this run, listed at the end. */
  paths?: readonly string[];
  /** Why the server does not speak the run's revision, one of several asked for (--revision all): its checks skipped. */
  unspoken?: string;
}

const SGR = { bold: 1, dim: 2, red: 31, green: 32, yellow: 33, magenta: 35, cyan: 36 } as const;
type Style = keyof typeof SGR;
const STATUS_STYLE: Record<Status, Style> = {
  pass: 'green',
  fail: 'red',
  warn: 'yellow',
  skip: 'cyan',
  error: 'magenta',
};
/** Details are shown for these, in this order. */
const DETAILED: readonly Status[] = ['fail', 'error', 'warn'];

/**
 * The console report: header, per-area table, then for every failure, error and warning the triad
 * (requirement, expected vs actual, transcript excerpt), then totals and the report paths.
 * Every string from the report passes through `visible` before our own colours are added.
 */
export function renderConsole(report: Report, options: ConsoleOptions): string {
  const { paint, tag, row } = styles(options.color);
  const out: string[] = [];

  // Header
  const peer = peerOf(report);
  out.push(paint('bold', `${visible(report.tool.name)} ${visible(report.tool.version)}`));
  out.push(row('target', visible(report.target.description)));
  out.push(
    row(
      peer.role,
      peer.protocolVersion !== undefined
        ? `${visible(peer.name ?? `unnamed ${peer.role}`)} · revision ${visible(peer.protocolVersion)}`
        : peer.role === 'client'
          ? 'never said who it is'
          : 'not initialized',
    ),
  );
  out.push(row('duration', duration(report.durationMs)));
  if (report.strict) out.push(row('mode', 'strict: SHOULD violations fail'));
  if (report.interrupted) out.push(paint('yellow', 'The run was interrupted before every check ran.'));

  // Per-area table. An area where every check skipped (a capability the server does not declare, another transport or
  // revision) is one name on the line after it, so that a small server's findings come within a screen of the top.
  const groups = [...groupByArea(report.checks)];
  const folded = options.verbose ? [] : groups.filter(([, checks]) => checks.every((c) => c.status === 'skip'));
  const rows = groups.filter((g) => !folded.includes(g));
  const width = Math.max(4, ...rows.map(([area]) => visible(area).length));
  out.push('');
  if (rows.length > 0)
    out.push(paint('bold', ['area'.padEnd(width), ...STATUSES.map((s) => s.padStart(5))].join('  ')));
  for (const [area, checks] of rows) {
    const s = summarize(checks);
    const cells = STATUSES.map((st) => {
      const cell = String(s[st]).padStart(5);
      return s[st] > 0 && st !== 'pass' ? paint(STATUS_STYLE[st], cell) : cell;
    });
    out.push([visible(area).padEnd(width), ...cells].join('  '));
  }
  if (folded.length > 0) out.push(...wrap(notApplicable(folded), LINE_WIDTH).map((line) => paint('dim', line)));

  // Verbose: one line per passing or skipped check
  if (options.verbose) {
    const quiet = report.checks.filter((c) => c.status === 'pass' || c.status === 'skip');
    if (quiet.length > 0) out.push('');
    for (const c of quiet) {
      out.push(
        `${tag(c.status)} ${visible(c.id)}  ${visible(c.title)}${c.status === 'skip' ? paint('dim', ` — ${visible(c.message)}`) : ''}`,
      );
    }
  }

  // Details: the triad for every failure, error and warning. A check that failed after an earlier fault (its
  // cause) is listed under that cause, one line each: fixing the cause first is what the reader should do.
  const causes = new Set(report.checks.map((c) => c.id));
  const followers = (cause: CheckResult) => report.checks.filter((c) => c.after === cause.id);
  for (const status of DETAILED) {
    for (const check of report.checks.filter((c) => c.status === status && !(c.after && causes.has(c.after)))) {
      out.push('', ...details(check));
      const after = followers(check);
      if (after.length === 0) continue;
      out.push(`  ${paint('dim', 'after it'.padEnd(11))} ${after.length} check(s) failed because of it:`);
      for (const c of after)
        out.push(
          options.verbose
            ? details(c)
                .map((line) => `    ${line}`)
                .join('\n')
            : `    ${tag(c.status)} ${visible(c.id)}  ${visible(c.title)}${c.status === 'fail' || c.status === 'warn' ? paint('dim', ` · ${explainLine(c.id)}`) : ''}`,
        );
    }
  }

  // Totals and paths
  const totals = `${formatTotals(summarize(report.checks))} · ${duration(report.durationMs)}`;
  if (options.unspoken !== undefined)
    out.push(
      '',
      `${paint('cyan', 'NOT SPOKEN')} ${visible(options.unspoken)} (the other revisions decide the exit code) · ${totals}`,
    );
  else if (testedNothing(report)) {
    const allowed = options.allowEmpty ? 'allowed by --allow-empty' : 'exit 2; --allow-empty accepts such a run';
    out.push('', `${paint('yellow', 'EMPTY')} nothing tested: every check was skipped (${allowed}) · ${totals}`);
  } else out.push('', `${tag(verdict(report))} ${totals}`);
  if (options.paths && options.paths.length > 0) out.push(row('reports', options.paths.map(visible).join(', ')));
  return `${out.join('\n')}\n`;

  function details(check: CheckResult): string[] {
    const listed =
      check.baseline &&
      (check.baseline.messageDiffers
        ? `listed as ${visible(check.baseline.entry)}, failing for another reason`
        : `expected failure: ${visible(check.baseline.reason ?? check.baseline.entry)}`);
    const expected = listed ? paint('dim', ` (${listed})`) : '';
    const lines = [`${tag(check.status)} ${paint('bold', visible(check.id))}  ${visible(check.title)}${expected}`];
    const limits = options.verbose ? { maxJson: 4000, maxText: 2000 } : { maxJson: 400, maxText: 200, last: 8 };
    for (const section of triad(check, limits)) {
      section.lines.forEach((line, i) => {
        const text = visible(line);
        lines.push(
          `  ${paint('dim', (i === 0 ? section.label : '').padEnd(11))} ${section.label === 'transcript' ? paint('dim', text) : text}`,
        );
      });
    }
    // A finding ends with where to read what its check wants and how to fix the usual causes.
    if (check.status === 'fail' || check.status === 'warn')
      lines.push(`  ${paint('dim', 'explain'.padEnd(11))} ${explainLine(check.id)}`);
    return lines;
  }
}

/**
 * `not applicable here: tasks, auth (N checks; --verbose lists them)`: areas where every check skipped, each under its
 * reason when the checks that give one give the same one, those without one first. As words to wrap: a reason with
 * its colon is one word.
 */
function notApplicable(areas: [string, CheckResult[]][]): string[] {
  const byReason = new Map<Inapplicable | undefined, string[]>([[undefined, []]]);
  for (const [area, checks] of areas) {
    // A skip of nothing seen to judge gives no reason of its own: it follows from the others (no tasks capability, no task).
    const reasons = new Set(checks.map((c) => inapplicable(c.message)).filter((r) => r !== undefined));
    const reason = reasons.size === 1 ? [...reasons][0] : undefined;
    byReason.set(reason, [...(byReason.get(reason) ?? []), visible(area)]);
  }
  const n = areas.reduce((sum, [, checks]) => sum + checks.length, 0);
  const count = [`(${n}`, `check${n === 1 ? '' : 's'};`, '--verbose', 'lists', 'them)'];
  const listed = [...byReason].filter(([, names]) => names.length > 0);
  const list = (names: string[], last: string) => names.map((name, i) => `${name}${i < names.length - 1 ? ',' : last}`);
  if (listed.length === 1) {
    const [[reason, names]] = listed;
    return ['not', 'applicable', reason ? `here (${reason}):` : 'here:', ...list(names, ''), ...count];
  }
  return [
    'not',
    'applicable',
    'here:',
    ...listed.flatMap(([reason, names], k) => [
      ...(reason ? [`${reason}:`] : []),
      ...list(names, k < listed.length - 1 ? ';' : ''),
    ]),
    ...count,
  ];
}

/** The console's lines of prose are wrapped at this width (transcripts and JSON are not). */
const LINE_WIDTH = 100;

/** The command that explains check `id` (a revision prefix of a report of several runs left off). */
export const explainLine = (id: string): string => `mcp-conformance explain ${visible(withoutRevision(id))}`;

function styles(color: boolean) {
  const paint = (style: Style, s: string) => (color ? `\x1b[${SGR[style]}m${s}\x1b[0m` : s);
  const tag = (status: Status) => paint(STATUS_STYLE[status], status.toUpperCase().padEnd(5));
  const row = (label: string, value: string) => `${paint('dim', label.padEnd(11))} ${value}`;
  return { paint, tag, row };
}

/**
 * The closing lines of runs side by side (a dual-era server's revisions), after each run's own report: every run's
 * verdict, then each check that failed, erred or warned in any run, once, with the runs it did so in (`on 2026-07-28`,
 * `on 2026-07-28, 2025-11-25`, or `on 2026-07-28; warn on 2025-11-25` where they differ), the worst first. A check
 * that failed after an earlier fault of its run (its cause) is counted under that cause.
 */
export function renderSides(sides: readonly Side[], options: { color: boolean }): string {
  const { paint, tag, row } = styles(options.color);
  const out = [
    row(
      byRevision(sides) ? 'revisions' : 'runs',
      sides.map((s) => `${visible(s.label)}: ${testedNothing(s) ? 'nothing tested' : s.verdict}`).join(' · '),
    ),
  ];
  const findings = acrossSides(sides).flatMap(({ id, results }) => {
    const where = new Map<Status, string[]>();
    results.forEach((check, i) => {
      if (
        !check ||
        !DETAILED.includes(check.status) ||
        (check.after && sides[i].checks.some((c) => c.id === check.after))
      )
        return;
      where.set(check.status, [...(where.get(check.status) ?? []), visible(sides[i].label)]);
    });
    const statuses = WORST_FIRST.filter((s) => where.has(s));
    if (statuses.length === 0) return [];
    const followers = results.reduce(
      (n, check, i) => n + (check ? sides[i].checks.filter((c) => c.after === check.id).length : 0),
      0,
    );
    const on = statuses.map((s, k) => `${k === 0 ? '' : `${s} `}on ${where.get(s)!.join(', ')}`).join('; ');
    return [
      {
        rank: WORST_FIRST.indexOf(statuses[0]),
        line: `${tag(statuses[0])} ${visible(id)}  ${paint('dim', on)}${followers > 0 ? paint('dim', ` (${followers} after it)`) : ''}`,
      },
    ];
  });
  out.push(...findings.sort((a, b) => a.rank - b.rank).map((f) => f.line));
  return `${out.join('\n')}\n`;
}
