import type { Report } from '../schema/generated/report.js';

export interface WrittenReports {
  json: string;
  junit: string;
  html: string;
  badgeSvg: string;
  badgeJson: string;
}

/** The value of a settled promise, or its reason thrown. */
function valueOf<T>(result: PromiseSettledResult<T>): T {
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}

/**
 * Write every file report into `outDir` (created if missing) and return their paths. Each report is attempted
 * even if another fails to write; the first failure is then rethrown.
 */
export async function writeReports(report: Report, outDir: string): Promise<WrittenReports> {
  // The renderers (badge-maker is slow to load) are loaded when a run ends, not when the tool starts.
  const [{ writeJsonReport }, { writeJunitReport }, { writeHtmlReport }, { writeBadge }] = await Promise.all([import('./json.js'), import('./junit.js'), import('./html.js'), import('./badge.js')]);
  const [json, junit, html, badge] = await Promise.allSettled([
    writeJsonReport(report, outDir),
    writeJunitReport(report, outDir),
    writeHtmlReport(report, outDir),
    writeBadge(report, outDir),
  ]);
  const files = { json: valueOf(json), junit: valueOf(junit), html: valueOf(html) };
  const { svg: badgeSvg, json: badgeJson } = valueOf(badge);
  return { ...files, badgeSvg, badgeJson };
}
