import type { CheckResult } from '../schema/generated/report.js';
import { firstLine } from './advice.js';
import { type Baseline, type BaselineEntry, entryFor, type RunContext } from './baseline.js';

/** One run's checks, as the baseline file sees them. */
export interface BaselineRun {
  run: RunContext;
  checks: readonly CheckResult[];
}

export interface UpdatedBaseline {
  text: string;
  kept: number;
  added: number;
  removed: number;
}

/** What an entry says, to write it again. */
interface Written {
  id: string;
  reason?: string;
  on?: string[];
  message?: string;
}

/** A pinned message: the failure's first line, short enough to read (a substring still matches the whole). */
const pinned = (c: CheckResult) => firstLine(c.message).slice(0, 120);

/**
 * The expected-failures file that lists exactly the failures of these runs: entries of `old` that still cover a
 * failure keep their id, reason and runs (their message follows the failure when it differs now); entries that cover
 * none go; each failure no entry covers is added with its message pinned, for the runs it failed in (every run: no
 * `on:`). Warnings are listed only when an entry already did.
 */
export function updateBaseline(old: Baseline | undefined, runs: readonly BaselineRun[]): UpdatedBaseline {
  const failing = runs.flatMap(({ run, checks }) =>
    checks
      .filter((c) => c.status === 'fail' || (c.status === 'warn' && c.baseline))
      .map((c) => ({ c, run, entry: old && entryFor(old, c.id, run) })),
  );
  const covers = (e: BaselineEntry) => failing.filter((f) => f.entry === e);
  const kept: Written[] = (old?.entries ?? [])
    .filter((e) => covers(e).length > 0)
    .map((e) => {
      const differing = covers(e).find((f) => !e.expects(f.c.message));
      const message = e.message === undefined ? undefined : differing ? pinned(differing.c) : e.message;
      return { id: e.pattern, reason: e.reason, on: e.on, message };
    });
  const added = new Map<string, { c: CheckResult; revisions: Set<string> }>();
  for (const { c, run, entry } of failing) {
    if (entry) continue;
    const seen = added.get(c.id) ?? { c, revisions: new Set<string>() };
    added.set(c.id, { ...seen, revisions: seen.revisions.add(run.revision) });
  }
  const everyRun = new Set(runs.map((r) => r.run.revision)).size;
  const fresh: Written[] = [...added.entries()].map(([id, { c, revisions }]) => ({
    id,
    reason: firstLine(c.message).slice(0, 100) || `${c.status}s: say why`,
    ...(revisions.size < everyRun && { on: [...revisions] }),
    ...(pinned(c) !== '' && { message: pinned(c) }),
  }));
  const entries = [...kept, ...fresh];
  const text =
    old?.shape === 'server'
      ? `server:\n${entries.map((e) => `  - ${e.id}\n`).join('')}`
      : `${header(old)}${entries.map(entryText).join('')}`;
  return { text, kept: kept.length, added: fresh.length, removed: (old?.entries.length ?? 0) - kept.length };
}

/** The comment lines the file started with, or ours. */
function header(old: Baseline | undefined): string {
  const comments = [];
  for (const line of old?.lines ?? []) {
    if (!line.startsWith('#')) break;
    comments.push(line);
  }
  if (comments.length > 0) return `${comments.join('\n')}\n`;
  return '# Expected failures of mcp-conformance, written by --update-baseline: edit each reason to say why;\n# message: is a substring of the failure (or a /pattern/), on: the revisions (or transports) an entry is for.\n';
}

/** JSON strings are YAML double-quoted scalars. */
function entryText(e: Written): string {
  const lines = [`- id: ${e.id}`];
  if (e.reason !== undefined) lines.push(`  reason: ${JSON.stringify(e.reason)}`);
  if (e.on) lines.push(`  on: ${e.on.length === 1 ? e.on[0] : `[${e.on.join(', ')}]`}`);
  if (e.message !== undefined) lines.push(`  message: ${JSON.stringify(e.message)}`);
  return `${lines.join('\n')}\n`;
}
