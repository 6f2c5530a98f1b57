import { serverLines, startsCount } from '../../report/starts.js';
import { baselineAdvice } from '../../baseline/advice.js';
import { findConfig } from '../../config/config.js';
import { DEFAULTS } from '../../config/defaults.js';
import { resolveOptions } from '../../config/options.js';
import { renderConsole, renderSides } from '../../report/console.js';
import {
  checkGitHubFiles,
  inGitHubActions,
  renderAnnotations,
  withoutCommands,
  writeGitHubFiles,
} from '../../report/github.js';
import { checkFolder } from '../../report/output.js';
import { type WrittenReports, writeReports } from '../../report/write.js';
import { join } from 'node:path';
import { access, writeFile } from 'node:fs/promises';
import { updateBaseline } from '../../baseline/update.js';
import type { Conformed } from '../../run/conform.js';
import { sidesOf } from '../../report/side-by-side.js';
import type { ResolvedOptions } from '../../config/options.js';
import type { Watched } from './watch.js';
import { failsTheRun } from '../../baseline/status.js';
import { testedNothing } from '../../report/summary.js';
import { visible } from '../../report/text.js';
import type { Report } from '../../schema/generated/report.js';
import { TOOL } from '../../version.js';
import { EXIT, exitCodeFor } from '../exit-codes.js';
import { type CliArgs, flagOf, helpText, parseCli, UsageError } from '../options.js';
import { progressSink } from '../progress-line.js';

/**
 * The main job: `mcp-conformance [options] <target>` or `… -- <command>`, with a config file filling in what the flags leave out.
 * When `signal` aborts (Ctrl-C, SIGTERM), the partial reports are written and the exit code is the abort's reason
 * (130 when it gives none).
 */
export async function runCommand(argv: string[], signal?: AbortSignal): Promise<number> {
  const args = parseCli(argv);
  if (args.help) {
    process.stdout.write(`${helpText()}\n`);
    return 0;
  }
  if (args.version) {
    process.stdout.write(`${TOOL.version}\n`);
    return 0;
  }
  // Resolved once, here, so that errors name the flags; the command line's reports go to the default folder unless told.
  const options = await resolveOptions(
    { ...args.options, config: args.options.config ?? findConfig(process.cwd()) },
    flagOf,
  );
  const out = options.out ?? DEFAULTS.out;
  // Every path the run writes is tried before any server starts, so a typo costs a second, not a run.
  await checkFolder(out, `${args.options.out === undefined ? 'reports folder' : '--out'} ${out}`);
  if (inGitHubActions()) await checkGitHubFiles();
  // A file that --update-baseline is to create is no baseline of this run.
  const baselineFile = args.updateBaseline ? await fileToUpdate(options.expectedFailures) : undefined;
  if (baselineFile?.exists === false) options.expectedFailures = undefined;
  const watched = args.watch && (await watchPaths(args.watch, options, baselineFile !== undefined));
  // The run's machinery (checks, properties, transports) is loaded once there is a run to do.
  const { combined, conformEach } = await import('../../run/conform.js');
  let reported = false;
  const runOnce = async (only?: string[]): Promise<Watched & { runs: Conformed[] }> => {
    const progress = progressSink(process.stdout, args.verbose);
    const runs = await conformEach(only ? { ...options, only } : options, signal, progress.onProgress).finally(() =>
      progress.stop(),
    );
    const failed = [...new Set(runs.flatMap((r) => r.report.checks.filter(failsTheRun).map((c) => c.id)))];
    // A rerun of the checks that failed writes nothing; a whole rerun writes the reports, printing only its changes.
    if (only) return { runs, report: combined(runs), code: 0, failed };
    const quiet = reported;
    reported = true;
    const code =
      runs.length === 1
        ? await reportRun(runs[0], out, args, signal, true, quiet)
        : await reportRuns(runs, out, args, signal, quiet);
    return { runs, report: combined(runs), code, failed };
  };
  const first = await runOnce();
  const { runs, code } = first;
  if (watched && !signal?.aborted) {
    const { watchLoop } = await import('./watch.js');
    return watchLoop({
      paths: watched,
      ignore: [out],
      first,
      rerun: runOnce,
      signal,
      write: (text) => process.stdout.write(text),
    });
  }
  if (!baselineFile || signal?.aborted) return code;
  const updated = updateBaseline(
    runs[0].baseline,
    runs.map((r) => ({ run: r.run, checks: r.report.checks })),
  );
  await writeFile(baselineFile.path, updated.text);
  process.stdout.write(
    `baseline    wrote ${visible(baselineFile.path)}: ${updated.kept} entries kept, ${updated.added} added, ${updated.removed} removed\n`,
  );
  // The file now lists every failure; what is left is the harness's errors, or a run that tested nothing.
  return code === EXIT.failed ? EXIT.ok : code;
}

/** What --watch watches: the paths given, or the server's folder; each must exist. */
async function watchPaths(paths: string[], options: ResolvedOptions, updating: boolean): Promise<string[]> {
  if (updating || options.shard)
    throw new UsageError(`--watch reruns the whole suite: it takes no ${updating ? '--update-baseline' : '--shard'}`);
  const { defaultWatchPaths } = await import('./watch.js');
  const watched = paths.length > 0 ? paths : defaultWatchPaths(options.target, options.cwd);
  if (watched.length === 0)
    throw new UsageError('--watch: a server at a URL has no files to watch here: name them with --watch-path');
  for (const path of watched) {
    await access(path).catch(() => {
      throw new UsageError(`--watch-path ${visible(path)}: no such file or folder`);
    });
  }
  return watched;
}

/** The expected-failures file --update-baseline writes, and whether it exists (it is read first when it does). */
async function fileToUpdate(path: string | undefined): Promise<{ path: string; exists: boolean }> {
  if (path === undefined) throw new UsageError('--update-baseline writes the --expected-failures FILE: name it');
  const exists = await access(path).then(
    () => true,
    () => false,
  );
  return { path, exists };
}

/** Reports of several runs, one per revision; returns the exit code of all of them together. */
async function reportRuns(
  runs: Conformed[],
  out: string,
  args: CliArgs,
  signal?: AbortSignal,
  quiet = false,
): Promise<number> {
  const { combined, revisionOf } = await import('../../run/conform.js');
  const options = runs[0].options;
  // Several revisions (a dual-era server, or --revision all): each run's reports and badge in <out>/<revision>/, then
  // all of them side by side in <out>/, where CI finds report.json and junit.xml as after a one-revision run.
  for (const run of runs) await reportRun(run, join(out, revisionOf(run)), args, signal, false, quiet);
  const report = combined(runs);
  const written = await writeReports(report, out);
  // The closing lines: each revision's verdict, then each finding once with the revisions it was found in.
  let text = `\n${renderSides(sidesOf(report)!, { color: colorOf(args) })}`;
  // Why a revision was not tested: the server does not speak it.
  for (const run of runs) if (run.unspoken !== undefined) text += `eras        ${visible(run.note!)}\n`;
  text += `reports     ${Object.values(written).map(visible).join(', ')}\n`;
  if (args.verbose) text += processesLine(report) + criticalPathLines(report);
  if (inGitHubActions()) text = withoutCommands(text) + (await publish(report, out, written));
  if (testedNothing(report))
    text += `nothing tested: every check of every revision was skipped${options.allowEmpty ? ' (allowed by --allow-empty)' : '; --allow-empty accepts such a run'}\n`;
  if (!quiet) process.stdout.write(text);
  return exitCode(report, options.allowEmpty, signal);
}

/**
 * Writes one run's reports (to `out`) and console text; returns its exit code. `alone` is false for one of several revisions,
 * whose combined report is the one GitHub gets.
 */
async function reportRun(
  { report, options, baseline, note, unspoken }: Conformed,
  out: string,
  args: CliArgs,
  signal?: AbortSignal,
  alone = true,
  quiet = false,
): Promise<number> {
  const written = await writeReports(report, out);
  let text = renderConsole(report, {
    color: colorOf(args),
    verbose: args.verbose,
    allowEmpty: options.allowEmpty,
    paths: Object.values(written),
    unspoken,
  });
  if (report.seed !== undefined)
    text += `seed        ${report.seed} (--seed ${report.seed} replays the generated checks)\n`;
  if (note && unspoken === undefined) text += `eras        ${visible(note)}\n`;
  if (args.verbose && alone) text += processesLine(report) + criticalPathLines(report);
  if (baseline) text += `\n${baselineAdvice(report, baseline, options.shard !== undefined)}`;
  // Server strings in the console text must not pose as workflow commands; our annotations follow it.
  if (inGitHubActions()) text = withoutCommands(text) + (alone ? await publish(report, out, written) : '');
  if (!quiet) process.stdout.write(text);
  return exitCode(report, options.allowEmpty, signal);
}

/** `processes   14 server processes started, at most 3 alive at once; 2 let start at once (…)` (--verbose), when the run started any. */
const processesLine = ({ processes: p }: Report) => {
  if (!p) return '';
  const gate =
    p.startsAtOnce === undefined
      ? ''
      : `; ${p.startsAtOnce} let start at once${p.firstStartMs === undefined ? '' : ` (the first start cost ${p.firstStartMs} ms)`}`;
  return `processes   ${p.started} server process${p.started === 1 ? '' : 'es'} started, at most ${p.mostAlive} alive at once${gate}\n`;
};

/**
 * `time        19.4 s: 24 server starts at 1.2 s each; …`, then the slowest requests and every fixed wait with its
 * length (--verbose).
 */
const criticalPathLines = (report: Report) => {
  const c = report.criticalPath;
  if (!c) return '';
  const starts = startsCount(report);
  const calls = c.slowCalls.map((s) => `${s.method}${s.name === undefined ? '' : ` ${s.name}`} ${s.ms} ms`);
  const waits = c.fixedWaits.map((w) => `${w.what}: ${w.ms} ms${w.count > 1 ? ` × ${w.count}` : ''}`);
  return [
    `time        ${visible(c.line)}${starts ? ` · ${starts}` : ''}
`,
    ...(c.starts
      ? [
          `starts      ${c.starts.count}, first line after ${c.starts.medianMs} ms (median), ${c.starts.maxMs} ms at most, ${c.starts.totalMs} ms in all
`,
        ]
      : []),
    ...(calls.length > 0
      ? [
          `slowest     ${visible(calls.join('; '))}
`,
        ]
      : []),
    ...waits.map(
      (w) => `fixed wait  ${visible(w)}
`,
    ),
    ...serverLines(report).map(
      (s) => `started     ${visible(s)}
`,
    ),
  ].join('');
};

/** --color or --no-color, else colour on a terminal unless NO_COLOR is set. */
const colorOf = (args: CliArgs): boolean => args.color ?? (process.stdout.isTTY === true && !process.env.NO_COLOR);

/** The step summary and outputs of GitHub Actions for a report; returns its annotations. */
async function publish(report: Report, out: string, written: WrittenReports): Promise<string> {
  const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const paths = {
    reports: out,
    ...Object.fromEntries(Object.entries(written).map(([key, path]) => [`report-${kebab(key)}`, path])),
  };
  await writeGitHubFiles(report, paths);
  return renderAnnotations(report);
}

/**
 * The report's exit code, or after an abort its reason (130 when it gives none). A run that tested nothing (a selection
 * of checks none of which applied) is no pass: 2, unless allowed.
 */
function exitCode(report: Report, allowEmpty: boolean, signal?: AbortSignal): number {
  if (signal?.aborted) return typeof signal.reason === 'number' ? signal.reason : 130;
  return testedNothing(report) && !allowEmpty ? EXIT.usage : exitCodeFor(report);
}
