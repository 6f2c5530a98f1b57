import type { CheckResult } from '../schema/generated/report.js';
import { bounded, toJson } from './text.js';
import { formatTranscript, type TranscriptFormat } from './transcript-format.js';

/** One labelled part of a check's explanation. */
export interface Section {
  label: 'requirement' | 'message' | 'baseline' | 'expected' | 'actual' | 'transcript';
  lines: string[];
}

export interface TriadOptions extends TranscriptFormat {
  /** Indent JSON by this many spaces; compact when absent. */
  indent?: number;
  /** Bound each JSON value to this many characters. */
  maxJson?: number;
}

/**
 * The triad every reporter shows for a check (STYLE practice 7): the requirement, then the message and
 * expected vs actual, then the transcript. Plain, unescaped text: each reporter escapes it for its format.
 */
export function triad(check: CheckResult, options: TriadOptions = {}): Section[] {
  const { requirement: r } = check;
  const json = (value: unknown) => bounded(toJson(value, options.indent), options.maxJson ?? Infinity).split('\n');
  const sections: Section[] = [{ label: 'requirement', lines: [`${r.id} (${r.level}) ${r.spec}`, r.text] }];
  if (check.message) sections.push({ label: 'message', lines: check.message.split(/\r\n|\r|\n/) });
  // A listed check failing for another reason: the message its entry expects, beside the one above.
  if (check.baseline?.messageDiffers)
    sections.push({
      label: 'baseline',
      lines: [
        `${check.baseline.entry} expects the message ${check.baseline.message}; this one differs, so it fails the run`,
      ],
    });
  if (check.expected !== undefined) sections.push({ label: 'expected', lines: json(check.expected) });
  if (check.actual !== undefined) sections.push({ label: 'actual', lines: json(check.actual) });
  const transcript = formatTranscript(check.transcript, options);
  if (transcript.length > 0) sections.push({ label: 'transcript', lines: transcript });
  return sections;
}

/** The triad as plain text: each label on a line of its own, its lines indented below (annotations, test failures). */
export function triadText(check: CheckResult, options: TriadOptions = {}): string {
  return triad(check, options)
    .map((s) => `${s.label}:\n${s.lines.map((line) => `  ${line}`).join('\n')}`)
    .join('\n');
}
