import { usageOrHarness } from './exit-codes.js';
import { officialSide } from './official.js';

/** Subcommands, each loaded only when it runs; anything else is a target for the main job. */
export const COMMANDS: Record<string, (argv: string[], signal: AbortSignal) => Promise<number>> = {
  list: async (argv) => (await import('./commands/list.js')).listCommand(argv),
  report: async (argv) => (await import('./commands/report.js')).reportCommand(argv),
  badge: async (argv) => (await import('./commands/badge.js')).badgeCommand(argv),
  diff: async (argv) => (await import('./commands/diff.js')).diffCommand(argv),
  matrix: async (argv, signal) => (await import('./commands/matrix.js')).matrixCommand(argv, signal),
  client: async (argv, signal) => (await import('./commands/client.js')).clientCommand(argv, signal),
  authorization: async (argv) => (await import('./commands/authorization.js')).authorizationCommand(argv),
  init: async (argv, signal) => (await import('./commands/init.js')).initCommand(argv, signal),
  mcp: async (argv) => (await import('./commands/mcp.js')).mcpCommand(argv),
  explain: async (argv) => (await import('./commands/explain.js')).explainCommand(argv),
};

export const isSubcommand = (first: string | undefined): first is string =>
  first !== undefined && Object.hasOwn(COMMANDS, first);

/**
 * One command line (the arguments after the program's name) to its exit code: a user's mistake or a harness error is
 * one line on stderr and exit 2. Apart from main.ts's signals and exit, this is the whole CLI, so tests run it here.
 */
export async function runCommandLine(argv: string[], signal: AbortSignal): Promise<number> {
  const [first, ...rest] = argv;
  try {
    // The official suite's line (`server --url …`, `client --command …`): only after its subcommand word and flag.
    const official = officialSide(argv);
    if (official) return await (await import('./commands/official.js')).officialCommand(official, rest, signal);
    return isSubcommand(first)
      ? await COMMANDS[first](rest, signal)
      : await (await import('./commands/run.js')).runCommand(argv, signal);
  } catch (err) {
    process.stderr.write(`mcp-conformance: ${usageOrHarness(err as Error)}\n`);
    return 2;
  }
}
