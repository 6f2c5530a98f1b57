import type { CheckResult, Report } from '../schema/generated/report.js';
import { failsTheRun, isExpectedFailure, isStale } from '../baseline/status.js';
import { writeReportFile } from './output.js';
import { groupByArea, summarize, areaOf } from './summary.js';
import { formatTranscript } from './transcript-format.js';
import { triad, type Section } from './triad.js';

/** Characters XML 1.0 forbids: controls other than \t \n \r, lone surrogates, U+FFFE and U+FFFF. */
const FORBIDDEN = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;
const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const ATTR_ESCAPES: Record<string, string> = {
  ...TEXT_ESCAPES,
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** Text content: forbidden characters removed, markup escaped (so `]]>` and `</failure>` stay text). */
export function xmlText(s: string): string {
  return s.replace(FORBIDDEN, '').replace(/[&<>]/g, (c) => TEXT_ESCAPES[c]);
}

/** An attribute value for double or single quotes; whitespace kept as character references. */
export function xmlAttr(s: string): string {
  return s.replace(FORBIDDEN, '').replace(/[&<>"'\t\n\r]/g, (c) => ATTR_ESCAPES[c]);
}

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([name, value]) => `${name}="${xmlAttr(String(value))}"`)
    .join(' ');
}

function seconds(ms: number): string {
  return (Number.isFinite(ms) && ms > 0 ? ms / 1000 : 0).toFixed(3);
}

function element(name: string, attributes: Record<string, string | number>, body: string): string {
  const a = attrs(attributes);
  return `<${name}${a ? ` ${a}` : ''}>${xmlText(body)}</${name}>`;
}

function sectionsText(sections: Section[]): string {
  return sections.map((s) => `${s.label}:\n${s.lines.map((line) => `  ${line}`).join('\n')}`).join('\n');
}

/** The requirement, expected vs actual and the last transcript entries, as the body of <failure> or <error>. */
function details(check: CheckResult): string {
  return `\n${sectionsText(triad(check, { indent: 2, maxJson: 20_000, last: 8 }))}\n`;
}

const TRIAD_HEAD = new Set<Section['label']>(['requirement', 'baseline', 'expected', 'actual']);

/** <system-out>: the whole transcript of every non-pass check; a warning comes first, with its triad. */
function systemOut(check: CheckResult): string {
  if (check.status === 'pass') return '';
  const parts: string[] = [];
  if (isExpectedFailure(check)) parts.push(`EXPECTED FAILURE (${check.baseline!.reason}): ${check.message}`);
  else if (check.status === 'warn') {
    const sections = triad(check, { indent: 2, maxJson: 20_000 }).filter((s) => TRIAD_HEAD.has(s.label));
    parts.push(`WARNING: ${check.message}`, sectionsText(sections));
  }
  const transcript = formatTranscript(check.transcript);
  if (transcript.length > 0) parts.push(`transcript:\n${transcript.join('\n')}`);
  return parts.length > 0 ? `\n${parts.join('\n')}\n` : '';
}

function renderCase(check: CheckResult): string {
  const open = `<testcase ${attrs({ classname: areaOf(check), name: check.id, time: seconds(check.durationMs) })}`;
  const children: string[] = [];
  // The baseline decides what fails the run, so JUnit consumers see the same verdict as the exit code.
  if (failsTheRun(check)) {
    const message = isStale(check) ? `stale expected-failures entry: ${check.id} passes now` : check.message;
    children.push(element('failure', { message, type: check.level }, details(check)));
  }
  if (check.status === 'error')
    children.push(element('error', { message: check.message, type: 'error' }, details(check)));
  if (check.status === 'skip') children.push(`<skipped ${attrs({ message: check.message })}/>`);
  const out = systemOut(check);
  if (out) children.push(element('system-out', {}, out));
  if (children.length === 0) return `    ${open}/>`;
  return [`    ${open}>`, ...children.map((c) => `      ${c}`), '    </testcase>'].join('\n');
}

function counts(checks: readonly CheckResult[], ms: number): Record<string, number | string> {
  const s = summarize(checks);
  return {
    tests: checks.length,
    failures: checks.filter(failsTheRun).length,
    errors: s.error,
    skipped: s.skip,
    time: seconds(ms),
  };
}

/** The run id of the report.json written with this file, as a testsuite property (where every JUnit schema allows one). */
const runIdProperty = ({ runId }: Report): string[] =>
  runId
    ? [
        '    <properties>',
        `      <property ${attrs({ name: 'mcp-conformance.run-id', value: runId })}/>`,
        '    </properties>',
      ]
    : [];

/**
 * JUnit XML: one <testsuite> per area, one <testcase> per check. fail → <failure type=level>, error → <error>,
 * skip → <skipped>; warn passes in JUnit terms and carries `WARNING:` in <system-out>.
 */
export function renderJunit(report: Report): string {
  const suites = [...groupByArea(report.checks)].map(([area, checks]) => {
    const ms = checks.reduce((sum, c) => sum + (Number.isFinite(c.durationMs) ? c.durationMs : 0), 0);
    return [
      `  <testsuite ${attrs({ name: area, ...counts(checks, ms) })}>`,
      ...runIdProperty(report),
      ...checks.map(renderCase),
      '  </testsuite>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites ${attrs({ name: 'mcp-conformance', ...counts(report.checks, report.durationMs) })}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

/** Write `outDir/junit.xml`; returns its path. */
export function writeJunitReport(report: Report, outDir: string): Promise<string> {
  return writeReportFile(outDir, 'junit.xml', renderJunit(report));
}
