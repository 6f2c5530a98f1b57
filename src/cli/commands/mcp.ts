import { serveMcp } from '../../mcp/server.js';
import { suiteServer } from '../../mcp/suite-tools.js';
import { UsageError } from '../options.js';

/**
 * `mcp-conformance mcp`: the suite as an MCP server over stdio, for MCP hosts (coding agents). Returns when stdin
 * closes; the servers its runs started are stopped by the process's exit hook.
 */
export async function mcpCommand(argv: string[]): Promise<number> {
  if (argv.length > 0) throw new UsageError(`mcp takes no arguments, got ${argv.join(' ')}`);
  // Only MCP messages may go to stdout: what else the suite prints goes to stderr.
  process.stdout.on('error', () => process.exit(0));
  process.stderr.write('mcp-conformance: serving MCP on stdio\n');
  await serveMcp(suiteServer(), { input: process.stdin, output: process.stdout });
  await new Promise<void>((done) => process.stdout.write('', () => done()));
  return 0;
}
