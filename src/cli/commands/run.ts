import { renderConsole } from '../../report/console.js';
import { writeReports } from '../../report/write.js';
import { runConformance } from '../../run/run.js';
import { resolveTarget } from '../../target/resolve.js';
import { TOOL } from '../../version.js';
import { exitCodeFor } from '../exit-codes.js';
import { UsageError, helpText, parseCli } from '../options.js';

/** The main job: `mcp-conformance [options] <target>` or `… -- <command>`. */
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
  if (!args.target && !args.command) throw new UsageError('no target given (see --help)');
  const plan = await resolveTarget({ target: args.target, command: args.command, cwd: args.cwd, env: args.env });
  const report = await runConformance({ plan, timeoutMs: args.timeoutMs, budgetMs: args.budgetMs, strict: args.strict });
  const written = await writeReports(report, args.out);
  const color = args.color ?? (process.stdout.isTTY === true && !process.env.NO_COLOR);
  process.stdout.write(renderConsole(report, { color, verbose: args.verbose, paths: Object.values(written) }));
  return exitCodeFor(report.summary);
}
