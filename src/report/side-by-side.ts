import type { CheckResult, Report, Run, Status } from '../schema/generated/report.js';
import { areaOf, verdict } from './summary.js';

/** One of the runs side by side in a report (a revision of a dual-era server), with its checks as the report has them. */
export interface Side {
  run: Run;
  /** What the reports call it: its revision, else its prefix. */
  label: string;
  checks: CheckResult[];
  verdict: ReturnType<typeof verdict>;
}

/** A check id across the sides: its id without the prefix, and each side's result (undefined where that side has none). */
export interface Across {
  id: string;
  results: (CheckResult | undefined)[];
}

/** The runs side by side in a report, in order; undefined for a report of one run. */
export function sidesOf(report: Pick<Report, 'runs' | 'checks'>): Side[] | undefined {
  if (!report.runs || report.runs.length < 2) return undefined;
  return report.runs.map((run) => {
    const checks = report.checks.filter((c) => c.id.startsWith(`${run.prefix}/`));
    return { run, label: run.revision ?? run.prefix, checks, verdict: verdict({ checks }) };
  });
}

/** Whether every side is a revision of one server (a --revision auto|all run), not one of several servers. */
export const byRevision = (sides: readonly Side[]): boolean => sides.every((s) => s.run.revision !== undefined);

/** `text` without the side's prefix: a check's id or area as its own run had it. */
export const unprefixed = (side: Side, text: string): string =>
  text.startsWith(`${side.run.prefix}/`) ? text.slice(side.run.prefix.length + 1) : text;

/** A check's area as its own run had it. */
export const areaIn = (side: Side, check: CheckResult): string => unprefixed(side, areaOf(check));

/** Every check id of any side, in order of first appearance, with each side's result. */
export function acrossSides(sides: readonly Side[]): Across[] {
  const byId = new Map<string, (CheckResult | undefined)[]>();
  sides.forEach((side, i) => {
    for (const check of side.checks) {
      const id = unprefixed(side, check.id);
      const results = byId.get(id) ?? Array<CheckResult | undefined>(sides.length).fill(undefined);
      results[i] = check;
      byId.set(id, results);
    }
  });
  return [...byId].map(([id, results]) => ({ id, results }));
}

/** Statuses from the worst down, as the verdict ranks them. */
export const WORST_FIRST: readonly Status[] = ['fail', 'error', 'warn', 'pass', 'skip'];
