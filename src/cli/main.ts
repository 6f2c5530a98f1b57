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

// Servers run in their own process group, so a Ctrl-C does not reach them: stop them here.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAllServers();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

const [first, ...rest] = process.argv.slice(2);
const command = first !== undefined && Object.hasOwn(COMMANDS, first) ? COMMANDS[first](rest) : runCommand(process.argv.slice(2));
command.then(
  (code) => process.exit(code),
  (err: Error) => {
    process.stderr.write(`mcp-conformance: ${usageOrHarness(err)}\n`);
    process.exit(2);
  },
);
