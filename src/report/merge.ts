import type { CheckResult, Report, Run, Status } from '../schema/generated/report.js';
import { areaOf, summarize } from './summary.js';
import { bounded } from './text.js';

/** One report to merge and where it came from (named in notes). */
export interface MergeInput {
  source: string;
  report: Report;
  /** What its checks are prefixed with when reports are side by side (default: its server's name), e.g. a revision. */
  label?: string;
  /** The revision it tested, when the reports side by side are one server's revisions. */
  revision?: string;
}

export interface Merged {
  report: Report;
  /** Conflicts resolved while merging, one line each. */
  notes: string[];
}

/** Which verdict wins when shards disagree on a check: the worse one; a skip never hides a verdict. */
const RANK: Record<Status, number> = { skip: 0, pass: 1, warn: 2, error: 3, fail: 4 };

/** Reports of the same target and server (name, version, revision) are shards of one run, unless labelled apart. */
const runKey = ({ report: r, label }: MergeInput) =>
  JSON.stringify([label, r.target.description, r.server?.name, r.server?.version, r.server?.protocolVersion]);

/**
 * Merge reports into one. Reports of one target and server are shards: their checks are united by id, in
 * order of first appearance; when two carry the same id with different statuses the worse is kept and the
 * conflict noted in its message and in `notes`. Reports of different servers are merged as such shard
 * groups side by side, each check id and area prefixed with a slug of its label or server (`everything/tools/…`,
 * `2026-07-28/tools/…`), and the merged report has no single `server`. The summary is always recomputed.
 */
export function mergeReports(inputs: readonly MergeInput[]): Merged {
  if (inputs.length === 0) throw new Error('nothing to merge');
  const notes: string[] = [];
  const groups = new Map<string, MergeInput[]>();
  for (const input of inputs) groups.set(runKey(input), [...(groups.get(runKey(input)) ?? []), input]);
  const runs = [...groups.values()].map((group) => ({
    report: mergeShards(group, notes),
    label: group[0].label,
    revision: group[0].revision,
  }));
  const report = runs.length === 1 ? runs[0].report : sideBySide(runs);
  return { report: { ...report, summary: summarize(report.checks) }, notes };
}

function mergeShards(shards: readonly MergeInput[], notes: string[]): Report {
  const kept = new Map<string, { check: CheckResult; source: string }>();
  for (const { source, report } of shards) {
    for (const check of report.checks) {
      const seen = kept.get(check.id);
      if (!seen) kept.set(check.id, { check, source });
      else if (seen.check.status !== check.status) {
        const [worse, other] =
          RANK[check.status] > RANK[seen.check.status] ? [{ check, source }, seen] : [seen, { check, source }];
        notes.push(
          `${check.id}: ${worse.check.status} in ${worse.source}, ${other.check.status} in ${other.source}; kept ${worse.check.status}`,
        );
        const message = `${worse.check.message} (merged: ${other.source} had ${other.check.status}: ${bounded(other.check.message, 200)})`;
        kept.set(check.id, { check: { ...worse.check, message }, source: worse.source });
      }
    }
  }
  return { ...span(shards.map((s) => s.report)), checks: [...kept.values()].map((k) => k.check) };
}

/** The fields every merged report shares: the first report's, with times spanning all and any flag set kept. */
function span(reports: readonly Report[]): Omit<Report, 'checks'> {
  const start = Math.min(...reports.map((r) => Date.parse(r.startedAt)));
  const end = Math.max(...reports.map((r) => Date.parse(r.startedAt) + r.durationMs));
  const counted = reports.flatMap((r) => r.processes ?? []);
  // One run's critical path is not the merged runs' (a command's own runs get theirs from conformEach).
  const { criticalPath, ...rest } = reports[0];
  // One report keeps its fields in their order, so a re-render writes the same bytes.
  const first = reports.length === 1 ? reports[0] : rest;
  return {
    ...first,
    startedAt: new Date(start).toISOString(),
    durationMs: end - start,
    // Counts add up; what the start gate decided is the first run's (the runs of one command share it).
    ...(counted.length > 0 && {
      processes: {
        ...counted[0],
        started: counted.reduce((n, c) => n + c.started, 0),
        mostAlive: Math.max(...counted.map((c) => c.mostAlive)),
        ...(counted.some((c) => c.servers) && { servers: counted.flatMap((c) => c.servers ?? []) }),
      },
    }),
    ...(reports.some((r) => r.strict) && { strict: true }),
    ...(reports.some((r) => r.interrupted) && { interrupted: true }),
  };
}

/** Several servers' runs in one report: ids and areas prefixed with each run's slug (its label or server name). */
function sideBySide(labelled: readonly { report: Report; label?: string; revision?: string }[]): Report {
  const runs = labelled.map((l) => l.report);
  // One server in several revisions (the folders of a --revision auto|all run) is told apart by revision, as the run's own combined report is.
  const names = new Set(runs.map((r) => r.server?.name ?? r.target.description));
  const byRevision = names.size === 1 && runs.every((r) => r.server?.protocolVersion !== undefined);
  const slugs = uniqueSlugs(
    labelled.map(
      ({ report: r, label }) =>
        label ?? (byRevision ? r.server!.protocolVersion : (r.server?.name ?? r.target.description)),
    ),
  );
  const { server: _server, runs: _runs, ...shared } = span(runs);
  // What the renderers need to show the runs as one: each one's prefix, revision, target and server.
  const sides = labelled.flatMap(({ report: r, revision }, i): Run[] => {
    if (r.runs) return r.runs.map((inner) => ({ ...inner, prefix: `${slugs[i]}/${inner.prefix}` }));
    const tested = revision ?? (byRevision ? r.server!.protocolVersion : undefined);
    return [
      {
        prefix: slugs[i],
        ...(tested !== undefined && { revision: tested }),
        target: r.target,
        ...(r.server && { server: r.server }),
      },
    ];
  });
  return {
    ...shared,
    target: { description: runs.map((r, i) => `${slugs[i]}: ${identity(r)}`).join(' · ') },
    runs: sides,
    // A check's cause is named by its id, which is prefixed like the others.
    checks: runs.flatMap((r, i) =>
      r.checks.map((c) => ({
        ...c,
        id: `${slugs[i]}/${c.id}`,
        area: `${slugs[i]}/${areaOf(c)}`,
        ...(c.after && { after: `${slugs[i]}/${c.after}` }),
      })),
    ),
  };
}

/** `name version, revision R (target)`, or the target alone when the server never initialized. */
function identity(r: Report): string {
  if (!r.server) return r.target.description;
  const name = [r.server.name, r.server.version].filter(Boolean).join(' ');
  return `${name ? `${name}, ` : ''}revision ${r.server.protocolVersion} (${r.target.description})`;
}

/** Id-safe slugs (`[a-z0-9-]+`); a name used twice gets `-2`, `-3`… */
export function uniqueSlugs(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const base =
      name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 40) || 'server';
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    return slug;
  });
}
