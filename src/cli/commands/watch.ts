import { type FSWatcher, statSync, watch } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { diffReports, renderDiffText } from '../../report/diff.js';
import { visible } from '../../report/text.js';
import type { Report } from '../../schema/generated/report.js';

/** One run as the watch loop sees it. */
export interface Watched {
  /** The run's report (several revisions: side by side, as written to the reports folder). */
  report: Report;
  code: number;
  /** The ids of the checks that failed, as --only takes them (without a revision prefix). */
  failed: string[];
}

export interface WatchLoop {
  /** Files and folders to watch (folders with everything below them). */
  paths: string[];
  /** Folders whose changes are no reason to run again: the reports folder, dependencies, version control. */
  ignore: string[];
  first: Watched;
  /** The whole run again (reports written), or with `only` just those checks (nothing written). */
  rerun(only?: string[]): Promise<Watched>;
  signal?: AbortSignal;
  write(text: string): void;
}

/** Changes that come together (an editor's save, a build) are one reason to run again. */
const SETTLE_MS = 300;

/**
 * `--watch`: after the first run, run again whenever a watched file changes, until the signal aborts (Ctrl-C). The
 * checks that failed last time run first, on their own, then the whole suite; each time only what changed since the
 * previous run is printed. Returns the abort's exit code.
 */
export async function watchLoop(loop: WatchLoop): Promise<number> {
  const ignored = loop.ignore.map((p) => resolve(p));
  let changed: string | undefined;
  let settle: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  const onChange = (path: string) => {
    if (
      ignored.some((dir) => path === dir || path.startsWith(dir + sep)) ||
      /(^|[/\\])(node_modules|\.git)([/\\]|$)/.test(path)
    )
      return;
    changed ??= path;
    clearTimeout(settle);
    settle = setTimeout(() => wake?.(), SETTLE_MS);
  };
  const watchers: FSWatcher[] = loop.paths.map((path) => {
    const full = resolve(path);
    const folder = statSync(full).isDirectory();
    return watch(full, { recursive: folder }, (_event, name) =>
      onChange(folder && name ? join(full, name.toString()) : full),
    );
  });
  const stopped = new Promise<void>((done) =>
    loop.signal?.aborted ? done() : loop.signal?.addEventListener('abort', () => done(), { once: true }),
  );
  let last = loop.first;
  loop.write(`\nwatching    ${loop.paths.map(visible).join(', ')} (Ctrl-C ends)\n`);
  try {
    for (;;) {
      await Promise.race([new Promise<void>((done) => (wake = done)), stopped]);
      if (loop.signal?.aborted) break;
      const what = changed ?? loop.paths[0];
      changed = undefined;
      const first = last.failed.length > 0 ? `; first the ${last.failed.length} check(s) that failed` : '';
      const shown = relative(process.cwd(), what);
      loop.write(
        `\n${new Date().toISOString().slice(11, 19)}  ${visible(shown && !shown.startsWith('..') ? shown : what)} changed: running again${first}\n`,
      );
      if (last.failed.length > 0) {
        const quick = await loop.rerun(last.failed);
        if (loop.signal?.aborted) break;
        const ran = new Set(quick.report.checks.map((c) => c.id));
        const before = { ...last.report, checks: last.report.checks.filter((c) => ran.has(c.id)) };
        loop.write(
          `\nthe checks that failed:\n${renderDiffText(diffReports({ source: 'last run', report: before }, { source: 'now', report: quick.report }), true)}`,
        );
      }
      const full = await loop.rerun();
      if (loop.signal?.aborted) break;
      loop.write(
        `\nthe whole run:\n${renderDiffText(diffReports({ source: 'last run', report: last.report }, { source: 'now', report: full.report }), true)}`,
      );
      last = full;
      // A change while the run ran is a reason to run again at once.
      if (changed !== undefined) setTimeout(() => wake?.(), SETTLE_MS);
    }
  } finally {
    clearTimeout(settle);
    for (const w of watchers) w.close();
  }
  const reason = loop.signal?.reason;
  return typeof reason === 'number' ? reason : 130;
}

/** What --watch watches unless told: the target's folder (a file's own folder), or the server's working directory. */
export function defaultWatchPaths(target: string | undefined, cwd: string | undefined): string[] {
  if (target !== undefined && /^https?:\/\//i.test(target)) return [];
  if (target === undefined) return [cwd ?? process.cwd()];
  const full = resolve(cwd ?? process.cwd(), target);
  try {
    return [statSync(full).isDirectory() ? full : dirname(full)];
  } catch {
    return [cwd ?? process.cwd()];
  }
}
