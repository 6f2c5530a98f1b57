import type { Report } from '../schema/generated/report.js';
import { writeJsonReport } from './json.js';
import { writeJunitReport } from './junit.js';

export interface WrittenReports {
  json: string;
  junit: string;
}

/**
 * Write every file report into `outDir` (created if missing) and return their paths. Each report is attempted
 * even if another fails to write; the first failure is then rethrown.
 */
export async function writeReports(report: Report, outDir: string): Promise<WrittenReports> {
  const [json, junit] = await Promise.allSettled([writeJsonReport(report, outDir), writeJunitReport(report, outDir)]);
  if (json.status === 'rejected') throw json.reason;
  if (junit.status === 'rejected') throw junit.reason;
  return { json: json.value, junit: junit.value };
}
