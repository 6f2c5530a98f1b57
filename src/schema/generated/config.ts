/* Generated from schema/ by `npm run generate`. Do not edit. */

/**
 * mcp-conformance.config.yaml: what the command-line options hold. Options given on the command line (or to runConformance) override it. Relative paths are relative to the file's folder.
 */
export interface Config {
  /**
   * The schema this file follows, for editors.
   */
  $schema?: string;
  /**
   * The server: a file, a project folder (its package.json bin or main), or a URL. Give either target or command.
   */
  target?: string;
  /**
   * The command that starts the server, with its arguments (like `-- <command>` on the command line).
   *
   * @minItems 1
   */
  command?: [string, ...string[]];
  /**
   * Working directory of the server.
   */
  cwd?: string;
  /**
   * Added to the server's environment (it inherits the rest).
   */
  env?: {
    [k: string]: string | number | boolean;
  };
  /**
   * HTTP headers sent with every request to a URL target.
   */
  headers?: {
    [k: string]: string;
  };
  /**
   * Environment variables (from env or inherited) whose values are secrets: reports, the console and launch errors show them as ***. Header values and env entries whose names look secret (TOKEN, KEY, SECRET, PASSWORD, AUTH…) are secrets without being listed.
   */
  secrets?: string[];
  /**
   * The URL the server started from target or command answers at: the run starts it, waits for the URL, and speaks HTTP to it. May contain {port}.
   */
  httpUrl?: string;
  /**
   * Fills {port} in httpUrl and the command, and is passed to the server as PORT; auto picks a free port.
   */
  port?: number | 'auto';
  /**
   * How to talk to the server: stdio (files and commands), http (Streamable HTTP, the default for URLs; a legacy HTTP+SSE server is detected) or sse (legacy HTTP+SSE).
   */
  transport?: 'stdio' | 'http' | 'sse';
  /**
   * Seconds to wait for each response (default 10).
   */
  timeout?: number;
  /**
   * Seconds for the whole run; checks still running then end as errors (default 300).
   */
  budget?: number;
  /**
   * SHOULD violations fail instead of warn.
   */
  strict?: boolean;
  /**
   * Folder for the reports (default reports).
   */
  out?: string;
  /**
   * The expected-failures (baseline) file.
   */
  expectedFailures?: string;
  /**
   * Which tools generated calls may reach: safe (those annotated readOnlyHint: true, and allowTools; the default), all (for sandboxes), or none.
   */
  toolCalls?: 'safe' | 'all' | 'none';
  /**
   * Tools generated calls may reach in safe mode besides the read-only ones.
   */
  allowTools?: string[];
  /**
   * Seed of the generated checks (default: a random one, printed in the report), to replay a run.
   */
  seed?: number;
  /**
   * Values each generated check (property) tries (default 100).
   */
  runs?: number;
  /**
   * Server processes that may be starting at once (default: one a core for a server heavy to start, two a core for a light one).
   */
  maxStarts?: number;
  /**
   * Run only these checks: ids or globs such as tools/** (* stays within one segment of an id, ** crosses /). A glob that matches no check is an error.
   */
  only?: string[];
  /**
   * Leave out these checks: ids or globs.
   */
  skip?: string[];
  /**
   * A run whose every check is skipped exits 0 (default: it exits 2, having tested nothing).
   */
  allowEmpty?: boolean;
  /**
   * Protocol revision to test. auto (the default): one run per era the server speaks (server/discover answered: 2026-07-28; initialize answered: 2025-11-25, from which the server negotiates down); all: one run per revision; 2026-07-28 uses the stateless wire (server/discover, protocol fields in every request's _meta); the others are asked for at initialize. Several runs: each has its own report under <out>/<revision>/, and <out>/ holds them all side by side, check ids prefixed with the revision.
   */
  revision?: '2026-07-28' | '2025-11-25' | '2025-06-18' | '2025-03-26' | 'all' | 'auto';
  /**
   * Folders of YAML cases to run besides the built-in suite.
   */
  cases?: string[];
  /**
   * An environment variable holding the bearer token for an HTTP server: sent as Authorization: Bearer <value>, shown as *** everywhere.
   */
  tokenEnv?: string;
  /**
   * Run a small local authorization server (RFC 8414 metadata and a JWKS on loopback) that issues tokens for the authorization checks; a server the run starts gets its URLs as MCP_CONFORMANCE_ISSUER and MCP_CONFORMANCE_JWKS_URL.
   */
  authServer?: boolean;
  /**
   * The port of the local authorization server (default: a free one), for a server started elsewhere that must be told its URL in advance.
   */
  authServerPort?: number;
}
