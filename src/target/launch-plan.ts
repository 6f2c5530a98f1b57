import type { Serve } from '../transport/in-process.js';
import type { TransportKind } from '../transport/transport.js';

/** How to start (or reach) the server under test. Produced by target resolution. */
export interface LaunchPlan {
  /** What the user pointed at, for messages and reports. */
  description: string;
  /** How the command line names the target again, with the options that start it (`--env … -- <command>`, `--http-url …`), for the replay line; else the description. */
  cliTarget?: string;
  /** The server's command; '' for a server that is already running at `url`. */
  command: string;
  args: string[];
  cwd: string;
  /** Added to the inherited environment. */
  env: Record<string, string>;
  /** How to talk to the server; stdio when absent. */
  transport?: TransportKind;
  /** A server of the caller's process (transport in-process): called once per session with the streams a stdio server has. */
  serve?: Serve;
  /** The MCP endpoint of an HTTP server: one already running, or the one `command` starts. */
  url?: string;
  /** Extra HTTP request headers (auth). Their values are secrets: every report shows them as ***. */
  headers?: Record<string, string>;
  /** Environment variables (in `env` or inherited) whose values are secrets too, whatever their names. */
  secretNames?: string[];
}
