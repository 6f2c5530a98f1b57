import { randomUUID } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import { checkAppendable } from './output.js';
import { failsTheRun, isExpectedFailure, isStale, staleAdvice } from '../baseline/status.js';
import type { CheckResult, Report } from '../schema/generated/report.js';
import { STATUSES, formatTotals, groupByArea, peerOf, summarize, verdict } from './summary.js';
import { duration, visible } from './text.js';
import { triad, triadText } from './triad.js';

/** Checks shown in full in the step summary; the rest are listed by id (a summary holds at most 1 MiB). */
const DETAILED = 30;
const MAX_JSON = 2000;

export const inGitHubActions = (env: NodeJS.ProcessEnv = process.env) => env.GITHUB_ACTIONS === 'true';

/** A workflow command's message: GitHub decodes `%25`, `%0D` and `%0A`, so a server string cannot end the command line. */
export const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/** A workflow command's property value, where `:` ends the properties and `,` separates them. */
export const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/**
 * Inline Markdown text: `&`, `<` and `>` as entities (no HTML gets through), every other ASCII punctuation
 * backslash-escaped (no emphasis, link, table cell break or autolink), line breaks as spaces.
 */
export function md(s: string): string {
  return visible(s.replace(/\r\n|\r|\n/g, ' ')).replace(/[&<>]|[!-/:-@[-`{-~]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : `\\${c}`,
  );
}

/** A fenced code block whose fence is longer than any backtick run inside, so the text cannot close it. */
export function codeBlock(lines: readonly string[]): string {
  const text = lines.map(visible).join('\n');
  const fence = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${fence}\n${text}\n${fence}`;
}

const ICON = { pass: '✅', fail: '❌', error: '⚠️' } as const;

/** The Markdown step summary: verdict, totals, a table by area, then the triad of each failure, warning and error. */
export function renderStepSummary(report: Report): string {
  const result = verdict(report);
  const peer = peerOf(report);
  const identity =
    peer.protocolVersion !== undefined
      ? `${peer.name ?? `unnamed ${peer.role}`} · revision ${peer.protocolVersion}`
      : 'not initialized';
  const out = [
    `## ${ICON[result]} MCP conformance: ${result}`,
    '',
    `${md(report.target.description)} · ${md(identity)} · ${md(formatTotals(report.summary))} · ${md(duration(report.durationMs))}${report.strict ? ' · strict' : ''}`,
    '',
    `| area | ${STATUSES.join(' | ')} |`,
    `| --- |${STATUSES.map(() => ' ---: |').join('')}`,
    ...[...groupByArea(report.checks)].map(([area, checks]) => {
      const s = summarize(checks);
      return `| ${md(area)} | ${STATUSES.map((st) => s[st]).join(' | ')} |`;
    }),
  ];
  const sections: [string, CheckResult[]][] = [
    ['Failures', report.checks.filter((c) => failsTheRun(c) && !isStale(c))],
    [
      'Stale expected failures: these pass now, remove them from the expected-failures file',
      report.checks.filter(isStale),
    ],
    ["Harness errors (not the server's fault)", report.checks.filter((c) => c.status === 'error')],
    ['Warnings', report.checks.filter((c) => c.status === 'warn' && !isExpectedFailure(c))],
    ['Expected failures', report.checks.filter(isExpectedFailure)],
  ];
  let shown = 0;
  for (const [heading, checks] of sections) {
    if (checks.length === 0) continue;
    out.push('', `### ${heading} (${checks.length})`);
    for (const check of checks) {
      if (shown++ < DETAILED) out.push('', ...details(check));
      else out.push('', `- \`${check.id}\` ${md(check.title)}`);
    }
  }
  if (shown > DETAILED) out.push('', `${shown - DETAILED} more in full in the reports.`);
  return `${out.join('\n')}\n`;
}

function details(check: CheckResult): string[] {
  const head = `#### ${check.status.toUpperCase()} \`${check.id}\` ${md(check.title)}`;
  const baseline = check.baseline
    ? [
        `*listed in the expected failures as ${md(check.baseline.entry)}${check.baseline.reason ? `: ${md(check.baseline.reason)}` : ''}*`,
      ]
    : [];
  const body = triad(check, { indent: 2, maxJson: MAX_JSON })
    .filter((s) => s.label !== 'transcript')
    .flatMap((s) =>
      s.label === 'expected' || s.label === 'actual'
        ? [`**${s.label}**`, codeBlock(s.lines)]
        : [`**${s.label}** ${s.lines.map(md).join('<br>')}`],
    );
  return [head, ...[...baseline, ...body].flatMap((line) => ['', line])];
}

/** One annotation per check that needs a look: `::error` fails the run, `::warning` is a warning, `::notice` an expected failure. */
export function renderAnnotations(report: Report): string {
  const lines = report.checks.flatMap((c) => {
    const kind =
      failsTheRun(c) || c.status === 'error'
        ? 'error'
        : c.status === 'warn' && !isExpectedFailure(c)
          ? 'warning'
          : isExpectedFailure(c)
            ? 'notice'
            : undefined;
    if (!kind) return [];
    const title = `${c.id}: ${isStale(c) ? 'stale expected failure' : c.status === 'error' ? 'harness error' : c.title}`;
    const message = isStale(c) ? staleAdvice(c) : triadText(c, { maxJson: 500, maxText: 200, last: 5 });
    // The runner prints annotations to the log too: server text must not drive the terminal there (lines stay lines).
    const shown = (s: string) => escapeData(s.split('\n').map(visible).join('\n'));
    return [`::${kind} title=${escapeProperty(visible(title))}::${shown(message)}`];
  });
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** Step outputs in GitHub's `name<<delimiter` form, which holds any value. */
export function renderOutputs(report: Report, paths: Record<string, string>): string {
  const s = summarize(report.checks);
  const values: Record<string, string | number> = {
    verdict: verdict(report),
    ...s,
    expected: report.checks.filter(isExpectedFailure).length,
    stale: report.checks.filter(isStale).length,
    ...paths,
  };
  const delimiter = `ghadelimiter_${randomUUID()}`;
  return Object.entries(values)
    .map(([name, value]) => `${name}<<${delimiter}\n${value}\n${delimiter}\n`)
    .join('');
}

/**
 * In GitHub Actions: appends the step summary to `$GITHUB_STEP_SUMMARY` and the outputs (`paths` are named report
 * paths such as `report-json`) to `$GITHUB_OUTPUT`, for whichever of the two GitHub set.
 */
export async function writeGitHubFiles(
  report: Report,
  paths: Record<string, string>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  if (env.GITHUB_STEP_SUMMARY) await appendFile(env.GITHUB_STEP_SUMMARY, renderStepSummary(report), 'utf8');
  if (env.GITHUB_OUTPUT) await appendFile(env.GITHUB_OUTPUT, renderOutputs(report, paths), 'utf8');
}

/** Before any server starts: the files GitHub set for the step summary and the outputs can be appended to. */
export async function checkGitHubFiles(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (env.GITHUB_STEP_SUMMARY)
    await checkAppendable(env.GITHUB_STEP_SUMMARY, `GITHUB_STEP_SUMMARY ${env.GITHUB_STEP_SUMMARY}`);
  if (env.GITHUB_OUTPUT) await checkAppendable(env.GITHUB_OUTPUT, `GITHUB_OUTPUT ${env.GITHUB_OUTPUT}`);
}

/** Wraps text the server may have shaped so the runner reads no workflow command in it (it trims lines, then looks for `::`). */
export function withoutCommands(text: string): string {
  const token = randomUUID();
  return `::stop-commands::${token}\n${text}::${token}::\n`;
}
