#!/usr/bin/env node
import { killAllServers } from '../transport/stdio.js';
import { badgeCommand } from './commands/badge.js';
import { listCommand } from './commands/list.js';
import { reportCommand } from './commands/report.js';
import { runCommand } from './commands/run.js';
import { usageOrHarness } from './exit-codes.js';

/** Subcommands; anything else is a target for the main job. */
const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  list: listCommand,
  report: reportCommand,
  badge: badgeCommand,
};

const [first, ...rest] = process.argv.slice(2);
const subcommand = first !== undefined && Object.hasOwn(COMMANDS, first);
const interrupt = new AbortController();

// Servers run in their own process group, so a Ctrl-C does not reach them: stop them here. The first Ctrl-C of a
// run only ends its checks, so the partial reports are still written (exit 130); a second one does not wait.
process.on('SIGINT', () => {
  if (!subcommand && !interrupt.signal.aborted) return interrupt.abort();
  killAllServers();
  process.exit(130);
});
process.once('SIGTERM', () => {
  killAllServers();
  process.exit(143);
});

const command = subcommand ? COMMANDS[first](rest) : runCommand(process.argv.slice(2), interrupt.signal);
command.then(
  (code) => process.exit(code),
  (err: Error) => {
    process.stderr.write(`mcp-conformance: ${usageOrHarness(err)}\n`);
    process.exit(2);
  },
);
