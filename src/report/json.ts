import type { Report } from '../schema/generated/report.js';
import { writeReportFile } from './output.js';

/** The report as written to report.json: pretty, two spaces, final newline. */
export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** Write `outDir/report.json`; returns its path. */
export function writeJsonReport(report: Report, outDir: string): Promise<string> {
  return writeReportFile(outDir, 'report.json', renderJson(report));
}
