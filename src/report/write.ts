import { randomUUID } from 'node:crypto';
import type { Report } from '../schema/generated/report.js';
import { writeFileSet } from './output.js';

export interface WrittenReports {
  json: string;
  junit: string;
  html: string;
  badgeSvg: string;
  badgeJson: string;
  sarif: string;
}

/** The report with its run id: a new one, unless it is a saved report rendered again. */
export const withRunId = (report: Report): Report & { runId: string } => ({
  ...report,
  runId: report.runId ?? randomUUID(),
});

/**
 * Writes every file report into `outDir` (created if missing) as one set, and returns their paths: report.json
 * carries the run id and the others name it, so a reader can tell that they belong together.
 */
export async function writeReports(report: Report, outDir: string): Promise<WrittenReports> {
  // The renderers (badge-maker is slow to load) are loaded when a run ends, not when the tool starts.
  const [
    { renderJson },
    { renderJunit },
    { renderHtml },
    { badgeFor, renderBadgeJson, renderBadgeSvg },
    { renderSarif },
  ] = await Promise.all([
    import('./json.js'),
    import('./junit.js'),
    import('./html.js'),
    import('./badge.js'),
    import('./sarif.js'),
  ]);
  const stamped = withRunId(report);
  const badge = badgeFor(stamped);
  const paths = await writeFileSet(outDir, {
    'report.json': renderJson(stamped),
    'junit.xml': renderJunit(stamped),
    'index.html': renderHtml(stamped),
    'badge.svg': renderBadgeSvg(badge, stamped.runId),
    'badge.json': renderBadgeJson(badge),
    'report.sarif': renderSarif(stamped),
  });
  const path = (name: string) => paths[name]!;
  return {
    json: path('report.json'),
    junit: path('junit.xml'),
    html: path('index.html'),
    badgeSvg: path('badge.svg'),
    badgeJson: path('badge.json'),
    sarif: path('report.sarif'),
  };
}
