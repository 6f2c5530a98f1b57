import { baselineAdvice } from '../../baseline/advice.js';
import { findConfig } from '../../config/config.js';
import { DEFAULTS } from '../../config/options.js';
import { renderConsole } from '../../report/console.js';
import { inGitHubActions, renderAnnotations, withoutCommands, writeGitHubFiles } from '../../report/github.js';
import { writeReports } from '../../report/write.js';
import { join } from 'node:path';
import { type Conformed, conformEach } from '../../run/conform.js';
import { verdict } from '../../report/summary.js';
import { TOOL } from '../../version.js';
import { exitCodeFor } from '../exit-codes.js';
import { type CliArgs, helpText, parseCli } from '../options.js';

/**
 * The main job: `mcp-conformance [options] <target>` or `… -- <command>`, with a config file filling in what the flags leave out.
 * When `signal` aborts (Ctrl-C), the partial reports are written and the exit code is 130.
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
  const runs = await conformEach({ ...args.options, config: args.options.config ?? findConfig(process.cwd()) }, signal);
  if (runs.length === 1) return reportRun(runs[0], args, signal);
  // --revision all|auto: one report per revision, in <out>/<revision>/, then one line with every revision's verdict.
  let code = 0;
  for (const run of runs) {
    const out = join(run.options.out ?? DEFAULTS.out, run.report.server?.protocolVersion ?? String(run.options.revision));
    code = Math.max(code, await reportRun({ ...run, options: { ...run.options, out } }, args, signal));
  }
  process.stdout.write(`\nrevisions   ${runs.map((r) => `${r.report.server?.protocolVersion ?? r.options.revision}: ${verdict(r.report)}`).join(' · ')}\n`);
  return code;
}

/** Writes one run's reports and console text; returns its exit code. */
async function reportRun({ report, options, baseline }: Conformed, args: CliArgs, signal?: AbortSignal): Promise<number> {
  const out = options.out ?? DEFAULTS.out;
  const written = await writeReports(report, out);
  const color = args.color ?? (process.stdout.isTTY === true && !process.env.NO_COLOR);
  let text = renderConsole(report, { color, verbose: args.verbose, paths: Object.values(written) });
  if (report.seed !== undefined) text += `seed        ${report.seed} (--seed ${report.seed} replays the generated checks)\n`;
  if (baseline) text += `\n${baselineAdvice(report, baseline, options.shard !== undefined)}`;
  if (inGitHubActions()) {
    const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    const paths = { reports: out, ...Object.fromEntries(Object.entries(written).map(([key, path]) => [`report-${kebab(key)}`, path])) };
    await writeGitHubFiles(report, paths);
    // Server strings in the console text must not pose as workflow commands; our annotations follow it.
    text = withoutCommands(text) + renderAnnotations(report);
  }
  process.stdout.write(text);
  return signal?.aborted ? 130 : exitCodeFor(report);
}
