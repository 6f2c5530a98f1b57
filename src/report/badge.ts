import { makeBadge } from 'badge-maker';
import { failsTheRun } from '../baseline/status.js';
import type { Report } from '../schema/generated/report.js';
import { writeFileSet } from './output.js';
import { sidesOf } from './side-by-side.js';
import { summarize, verdict } from './summary.js';
import { bounded, visible } from './text.js';

/** What a badge says; also the shields.io endpoint fields. */
export interface Badge {
  label: string;
  message: string;
  color: 'green' | 'yellow' | 'red' | 'lightgrey';
}

/** A revision is a short date; anything longer came from a confused server and must not stretch the badge. */
const MAX_REVISION = 24;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The badge mirrors the exit code. Red `N failing` when the run fails (N: the checks that fail it, stale
 * expected-failure entries included); grey `error` when nothing failed but the harness could not judge a check;
 * else yellow `N expected failures` (all listed in the baseline) or `conformant, N warnings` (SHOULD level), else
 * green `conformant`. The label names the negotiated revision: `MCP 2025-11-25`, or `MCP` without a server. On
 * runs side by side (a dual-era server's revisions) the badge is the worst run's, counted over them all, and the
 * label names the runs that set it: `MCP 2026-07-28` when that revision alone fails, `MCP 2026-07-28 + 2025-11-25`
 * when both are conformant.
 */
export function badgeFor(report: Report): Badge {
  const sides = sidesOf(report);
  const shown = (revision: string) => bounded(visible(revision), MAX_REVISION);
  const own = outcome(report);
  if (!sides)
    return { label: report.server?.protocolVersion ? `MCP ${shown(report.server.protocolVersion)}` : 'MCP', ...own };
  const setBy = sides.filter((side) => outcome(side).color === own.color);
  return { label: `MCP ${setBy.map((side) => shown(side.label)).join(' + ')}`, ...own };
}

function outcome(report: Pick<Report, 'checks'>): Omit<Badge, 'label'> {
  const summary = summarize(report.checks);
  switch (verdict(report)) {
    case 'fail':
      return { message: `${report.checks.filter(failsTheRun).length} failing`, color: 'red' };
    case 'error':
      return { message: 'error', color: 'lightgrey' };
    case 'pass':
      if (summary.fail > 0) return { message: plural(summary.fail, 'expected failure'), color: 'yellow' };
      if (summary.warn > 0) return { message: `conformant, ${plural(summary.warn, 'warning')}`, color: 'yellow' };
      return { message: 'conformant', color: 'green' };
  }
}

/** The badge as SVG (badge-maker escapes the text), with the run id of its report.json in a comment. */
export function renderBadgeSvg(badge: Badge, runId?: string): string {
  const svg = makeBadge({ ...badge, style: 'flat' });
  // A uuid holds no `--`, so it cannot end the comment; badge.json has no room for it (shields rejects unknown keys).
  return `${runId && /^[\w-]+$/.test(runId) ? svg.replace(/^<svg[^>]*>/, (open) => `${open}<!-- mcp-conformance run ${runId} -->`) : svg}\n`;
}

/** The badge as a shields.io endpoint: `https://img.shields.io/endpoint?url=<where badge.json is served>`. */
export function renderBadgeJson(badge: Badge): string {
  return `${JSON.stringify({ schemaVersion: 1, ...badge }, null, 2)}\n`;
}

/** Write `outDir/badge.svg` and `outDir/badge.json`; returns their paths. */
export async function writeBadge(report: Report, outDir: string): Promise<{ svg: string; json: string }> {
  const badge = badgeFor(report);
  const paths = await writeFileSet(outDir, {
    'badge.svg': renderBadgeSvg(badge, report.runId),
    'badge.json': renderBadgeJson(badge),
  });
  return { svg: paths['badge.svg']!, json: paths['badge.json']! };
}
