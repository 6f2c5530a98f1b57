import type { CheckResult, Report, Status } from '../schema/generated/report.js';
import { md } from './github.js';
import { formatTotals, verdict } from './summary.js';
import { bounded, visible } from './text.js';

/** One check that differs between two runs. */
export interface ChangedCheck {
  id: string;
  title: string;
  requirement: CheckResult['requirement'];
  /** Its status in the old run; absent when the check was not there. */
  was?: Status;
  /** Its status in the new run; absent when the check is gone. */
  now?: Status;
  /** The first line of its message in the run it is judged by (the new one, or the old one when it is gone). */
  message: string;
}

/** What changed from one run to another. Each check is in one list at most. */
export interface ReportDiff {
  old: RunSide;
  new: RunSide;
  /** Something got worse: a check fails that did not, or a status moved down (pass → warn, warn → error). */
  worse: boolean;
  /** Checks that fail now and did not (or were not there). */
  newFailures: ChangedCheck[];
  /** Checks that failed and do not now. */
  fixed: ChangedCheck[];
  /** Other status changes of checks in both runs. */
  changed: ChangedCheck[];
  /** Checks only the new run has (those failing are new failures). */
  added: ChangedCheck[];
  /** Checks only the old run has. */
  gone: ChangedCheck[];
}

interface RunSide {
  source: string;
  verdict: 'pass' | 'fail' | 'error';
  summary: Report['summary'];
}

/** How bad a status is, for "worse": a check that stopped applying (pass → skip) is a change, not a regression. */
const BADNESS: Record<Status, number> = { pass: 0, skip: 0, warn: 1, error: 2, fail: 3 };

/** The differences between two reports of the same suite, check by check (ids are the keys). */
export function diffReports(
  old: { source: string; report: Report },
  now: { source: string; report: Report },
): ReportDiff {
  const before = new Map(old.report.checks.map((c) => [c.id, c]));
  const after = new Map(now.report.checks.map((c) => [c.id, c]));
  const entry = (c: CheckResult, was: CheckResult | undefined, is: CheckResult | undefined): ChangedCheck => ({
    id: c.id,
    title: c.title,
    requirement: c.requirement,
    ...(was && { was: was.status }),
    ...(is && { now: is.status }),
    message: c.message.split(/\r\n|\r|\n/)[0],
  });
  const diff: ReportDiff = {
    old: side(old),
    new: side(now),
    worse: false,
    newFailures: [],
    fixed: [],
    changed: [],
    added: [],
    gone: [],
  };
  for (const c of now.report.checks) {
    const was = before.get(c.id);
    if (c.status === 'fail' && was?.status !== 'fail') diff.newFailures.push(entry(c, was, c));
    else if (!was) diff.added.push(entry(c, undefined, c));
    else if (was.status === 'fail' && c.status !== 'fail') diff.fixed.push(entry(c, was, c));
    else if (was.status !== c.status) diff.changed.push(entry(c, was, c));
  }
  for (const c of old.report.checks) if (!after.has(c.id)) diff.gone.push(entry(c, c, undefined));
  diff.worse = diff.newFailures.length > 0 || diff.changed.some((c) => BADNESS[c.now!] > BADNESS[c.was!]);
  return diff;
}

const side = ({ source, report }: { source: string; report: Report }): RunSide => ({
  source,
  verdict: verdict(report),
  summary: report.summary,
});

const SECTIONS = [
  ['newFailures', 'New failures'],
  ['fixed', 'Fixed'],
  ['changed', 'Status changes'],
  ['added', 'Added checks'],
  ['gone', 'Gone checks'],
] as const;

const statusText = (s: Status | undefined) => (s ? s.toUpperCase() : '—');

/** The headline: worse, better or the same, with the counts. */
function headline(d: ReportDiff): string {
  const counts = SECTIONS.map(([key, name]) => `${d[key].length} ${name.toLowerCase()}`).join(', ');
  const better = d.fixed.length > 0 || d.changed.some((c) => BADNESS[c.now!] < BADNESS[c.was!]);
  return `${d.worse ? 'WORSE' : better ? 'BETTER' : 'SAME'}: ${counts}`;
}

/**
 * The diff for a terminal: each list with the check, its statuses, its requirement and its message. `brief` (for
 * --watch) leaves out the two runs' lines and ends with the new run's verdict.
 */
export function renderDiffText(d: ReportDiff, brief = false): string {
  const out = brief
    ? []
    : [
        `old  ${visible(d.old.source)}  ${d.old.verdict.toUpperCase()}  ${formatTotals(d.old.summary)}`,
        `new  ${visible(d.new.source)}  ${d.new.verdict.toUpperCase()}  ${formatTotals(d.new.summary)}`,
      ];
  for (const [key, name] of SECTIONS) {
    if (d[key].length === 0) continue;
    out.push('', `${name} (${d[key].length})`);
    for (const c of d[key]) {
      out.push(
        `  ${statusText(c.was).padEnd(5)} → ${statusText(c.now).padEnd(5)}  ${visible(c.id)}  ${visible(c.title)}`,
      );
      out.push(`      ${visible(c.requirement.id)} (${c.requirement.level}) ${visible(c.requirement.spec)}`);
      if (c.message && c.now !== 'pass') out.push(`      ${visible(bounded(c.message, 300))}`);
    }
  }
  out.push(
    ...(out.length > 0 ? [''] : []),
    headline(d) + (brief ? ` · now ${d.new.verdict.toUpperCase()} ${formatTotals(d.new.summary)}` : ''),
  );
  return `${out.join('\n')}\n`;
}

/** Rows shown per list in Markdown (a step summary holds at most 1 MiB). */
const MAX_ROWS = 100;

/** The diff as Markdown (a GitHub step summary, a pull-request comment): a table per list. Server text is escaped. */
export function renderDiffMarkdown(d: ReportDiff): string {
  const out = [
    `## ${d.worse ? '❌' : '✅'} MCP conformance: what changed`,
    '',
    `**${md(headline(d))}**`,
    '',
    `| run | verdict | checks |`,
    `| --- | --- | --- |`,
    `| old: ${md(d.old.source)} | ${d.old.verdict} | ${md(formatTotals(d.old.summary))} |`,
    `| new: ${md(d.new.source)} | ${d.new.verdict} | ${md(formatTotals(d.new.summary))} |`,
  ];
  for (const [key, name] of SECTIONS) {
    const list = d[key];
    if (list.length === 0) continue;
    out.push(
      '',
      `### ${name} (${list.length})`,
      '',
      '| check | was | now | requirement | message |',
      '| --- | --- | --- | --- | --- |',
    );
    for (const c of list.slice(0, MAX_ROWS)) {
      out.push(
        `| \`${c.id.replace(/`/g, '')}\` ${md(c.title)} | ${statusText(c.was)} | ${statusText(c.now)} | ${requirementLink(c.requirement)} | ${c.now === 'pass' ? '' : md(bounded(c.message, 300))} |`,
      );
    }
    if (list.length > MAX_ROWS) out.push('', `… and ${list.length - MAX_ROWS} more (see the JSON diff)`);
  }
  if (SECTIONS.every(([key]) => d[key].length === 0)) out.push('', 'No check changed status.');
  return `${out.join('\n')}\n`;
}

/** `[id](spec) (LEVEL)`; a spec that is not a plain http(s) URL is shown as text. */
function requirementLink(r: CheckResult['requirement']): string {
  const linkable = /^https?:\/\/[^\s()<>]+$/.test(r.spec);
  return `${linkable ? `[${md(r.id)}](${r.spec})` : md(`${r.id} ${r.spec}`)} (${r.level})`;
}
