#!/usr/bin/env node
import { renderConsole } from '../report/console.js';
import { writeReports } from '../report/write.js';
import { runConformance } from '../run/run.js';
import { resolveTarget } from '../target/resolve.js';
import { killAllServers } from '../transport/stdio.js';
import { TOOL } from '../version.js';
import { UsageError, helpText, parseCli } from './options.js';
import { exitCodeFor, usageOrHarness } from './exit-codes.js';

async function main(argv: string[]): Promise<number> {
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

// Servers run in their own process group, so a Ctrl-C does not reach them: stop them here.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAllServers();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    process.stderr.write(`mcp-conformance: ${usageOrHarness(err)}\n`);
    process.exit(2);
  },
);
