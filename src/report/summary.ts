import { failsTheRun } from '../baseline/status.js';
import type { CheckResult, Report, Status, Summary } from '../schema/generated/report.js';

export const STATUSES: readonly Status[] = ['pass', 'fail', 'warn', 'skip', 'error'];

/** Count checks by status. */
export function summarize(checks: readonly CheckResult[]): Summary {
  const summary: Summary = { pass: 0, fail: 0, warn: 0, skip: 0, error: 0 };
  for (const check of checks) summary[check.status] += 1;
  return summary;
}

/** A server failed at least one check (under --strict the runner has already turned warnings into failures). */
export function hasFailures(summary: Summary): boolean {
  return summary.fail > 0;
}

/** The harness or the launch broke for at least one check: not a verdict on the server. */
export function hasErrors(summary: Summary): boolean {
  return summary.error > 0;
}

/**
 * One word for the run: a failure the expected-failures baseline does not list, or a listed check that passes (a
 * stale entry), makes it `fail`; otherwise any harness error makes it `error`.
 */
export function verdict(report: Pick<Report, 'checks'>): 'pass' | 'fail' | 'error' {
  if (report.checks.some(failsTheRun)) return 'fail';
  if (hasErrors(summarize(report.checks))) return 'error';
  return 'pass';
}

/** No check applied to the server (every one was skipped, or none was selected): the run tested nothing. */
export const testedNothing = (report: Pick<Report, 'checks'>): boolean =>
  report.checks.every((c) => c.status === 'skip');

/** The area of a check: its `area` field, or else the first segment of its id. */
export function areaOf(check: CheckResult): string {
  return check.area || check.id.split('/')[0];
}

/** Checks grouped by area, areas in the order they first appear, checks in report order. */
export function groupByArea(checks: readonly CheckResult[]): Map<string, CheckResult[]> {
  const groups = new Map<string, CheckResult[]>();
  for (const check of checks) {
    const area = areaOf(check);
    const group = groups.get(area);
    if (group) group.push(check);
    else groups.set(area, [check]);
  }
  return groups;
}

/** `5 checks: 1 pass, 1 fail, 1 warn, 1 skip, 1 error` */
export function formatTotals(summary: Summary): string {
  const total = STATUSES.reduce((n, s) => n + summary[s], 0);
  return `${total} check${total === 1 ? '' : 's'}: ${STATUSES.map((s) => `${summary[s]} ${s}`).join(', ')}`;
}

/** Who the run judged, as the reports name it: the server, or the client of a client run (from its clientInfo). */
export function peerOf(report: Pick<Report, 'server' | 'client'>): {
  role: 'server' | 'client';
  /** `name version`, or undefined when it never said. */
  name?: string;
  protocolVersion?: string;
  capabilities?: Record<string, unknown>;
} {
  const peer = report.client ?? report.server;
  const name = peer && [peer.name, peer.version].filter(Boolean).join(' ');
  return {
    role: report.client ? 'client' : 'server',
    ...(name && { name }),
    ...(peer?.protocolVersion !== undefined && { protocolVersion: peer.protocolVersion }),
    ...(peer?.capabilities !== undefined && { capabilities: peer.capabilities }),
  };
}
