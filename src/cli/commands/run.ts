import { baselineAdvice } from '../../baseline/advice.js';
import { findConfig } from '../../config/config.js';
import { DEFAULTS } from '../../config/options.js';
import { renderConsole } from '../../report/console.js';
import { inGitHubActions, renderAnnotations, withoutCommands, writeGitHubFiles } from '../../report/github.js';
import { writeReports } from '../../report/write.js';
import { conform } from '../../run/conform.js';
import { TOOL } from '../../version.js';
import { exitCodeFor } from '../exit-codes.js';
import { helpText, parseCli } from '../options.js';

/** The main job: `mcp-conformance [options] <target>` or `… -- <command>`, with a config file filling in what the flags leave out. */
export async function runCommand(argv: string[]): Promise<number> {
  const args = parseCli(argv);
  if (args.help) {
    process.stdout.write(`${helpText()}\n`);
    return 0;
  }
  if (args.version) {
    process.stdout.write(`${TOOL.version}\n`);
    return 0;
  }
  const { report, options, baseline } = await conform({ ...args.options, config: args.options.config ?? findConfig(process.cwd()) });
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
  return exitCodeFor(report);
}
