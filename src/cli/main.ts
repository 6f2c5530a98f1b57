#!/usr/bin/env node
import { killAllServers } from '../transport/server-process.js';
import { usageOrHarness } from './exit-codes.js';

/** Subcommands, each loaded only when it runs; anything else is a target for the main job. */
const COMMANDS: Record<string, (argv: string[], signal: AbortSignal) => Promise<number>> = {
  list: async (argv) => (await import('./commands/list.js')).listCommand(argv),
  report: async (argv) => (await import('./commands/report.js')).reportCommand(argv),
  badge: async (argv) => (await import('./commands/badge.js')).badgeCommand(argv),
  diff: async (argv) => (await import('./commands/diff.js')).diffCommand(argv),
  matrix: async (argv, signal) => (await import('./commands/matrix.js')).matrixCommand(argv, signal),
  client: async (argv, signal) => (await import('./commands/client.js')).clientCommand(argv, signal),
  init: async (argv, signal) => (await import('./commands/init.js')).initCommand(argv, signal),
  mcp: async (argv) => (await import('./commands/mcp.js')).mcpCommand(argv),
  explain: async (argv) => (await import('./commands/explain.js')).explainCommand(argv),
};

const [first, ...rest] = process.argv.slice(2);
const subcommand = first !== undefined && Object.hasOwn(COMMANDS, first);
/** A run, or the matrix's runs, end their checks at the first signal and still write their reports. */
const graceful = !subcommand || ['matrix', 'client', 'init'].includes(first);
const interrupt = new AbortController();

// Servers run in their own process group, so a Ctrl-C does not reach them: stop them here. The first Ctrl-C (or
// SIGTERM, as CI runners and `timeout` send) of a run only ends its checks, so the partial reports are still written
// and the run exits 128 + the signal's number; a second signal does not wait.
const stop = (exitCode: number) => () => {
  if (graceful && !interrupt.signal.aborted) return interrupt.abort(exitCode);
  killAllServers();
  process.exit(exitCode);
};
process.on('SIGINT', stop(130));
process.on('SIGTERM', stop(143));

const command = subcommand
  ? COMMANDS[first](rest, interrupt.signal)
  : import('./commands/run.js').then(({ runCommand }) => runCommand(process.argv.slice(2), interrupt.signal));
command.then(
  (code) => process.exit(code),
  (err: Error) => {
    process.stderr.write(`mcp-conformance: ${usageOrHarness(err)}\n`);
    process.exit(2);
  },
);
