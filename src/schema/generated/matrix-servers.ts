/* Generated from schema/ by `npm run generate`. Do not edit. */

/**
 * The servers file of `mcp-conformance matrix`: the servers (and clients, and authorization servers) to test, each run as its own mcp-conformance run. Relative paths are relative to the file's folder.
 */
export interface MatrixServers {
  /**
   * The schema this file follows, for editors.
   */
  $schema?: string;
  /**
   * @minItems 1
   */
  servers: [MatrixServer, ...MatrixServer[]];
}
/**
 * One server, one client, or one authorization server. A server has a target or a command; with url, the command starts an HTTP server that answers there. A client has `client` (run as `mcp-conformance client -- <client…>`) and none of the server's fields (target, command, cwd, env, transport, url, toolCalls, allowTools). An authorization server has `authorization` (run as `mcp-conformance authorization --url <issuer>`), none of the server's fields and no scenarios; clientId, clientSecret, resource, scope and port are for it alone.
 */
export interface MatrixServer {
  /**
   * Names the server in the matrix, and (as a slug) its folder in the output.
   */
  name: string;
  /**
   * A file, a project folder or the URL of a running server, as `mcp-conformance <target>` takes it.
   */
  target?: string;
  /**
   * The command that starts the server, with its arguments (like `-- <command>`). May contain {port}.
   *
   * @minItems 1
   */
  command?: [string, ...string[]];
  /**
   * This entry is a client: the command that starts it, with its arguments, as `mcp-conformance client -- <client…>` takes it (the test server's URL is appended, or replaces {url}; {server} makes it a stdio client).
   *
   * @minItems 1
   */
  client?: [string, ...string[]];
  /**
   * This entry is an authorization server: its issuer identifier (a URL), as `mcp-conformance authorization --url <issuer>` takes it.
   */
  authorization?: string;
  /**
   * An authorization server only: a pre-registered client (as --client-id).
   */
  clientId?: string;
  /**
   * An authorization server only: that client's secret (as --client-secret).
   */
  clientSecret?: string;
  /**
   * An authorization server only: the resource to ask tokens for, an absolute URI without a fragment (as --resource).
   */
  resource?: string;
  /**
   * An authorization server only: the scope to ask for (as --scope).
   */
  scope?: string;
  /**
   * An authorization server only: the redirect_uri's loopback port (as --port; with clientId the default is 3000).
   */
  port?: number;
  /**
   * A client only: the scenarios to run (as --scenario; default every one).
   *
   * @minItems 1
   */
  scenarios?: [string, ...string[]];
  /**
   * Working directory of the server.
   */
  cwd?: string;
  /**
   * Added to the server's environment. A value holding {port} gets the run's port.
   */
  env?: {
    [k: string]: string | number | boolean;
  };
  /**
   * As --transport.
   */
  transport?: 'stdio' | 'http' | 'sse';
  /**
   * Where the server the command starts answers over HTTP (as --http-url); {port} there takes a free port (--port auto).
   */
  url?: string;
  /**
   * As --revision (default auto): each revision run of a server is a column of the matrix; a client's run (every revision its scenarios have, or this one) is one column. For an authorization server, a dated revision is --spec-version (only the checks whose rule exists then); all is refused.
   */
  revision?: '2026-07-28' | '2025-11-25' | '2025-06-18' | '2025-03-26' | 'all' | 'auto';
  /**
   * As --tool-calls.
   */
  toolCalls?: 'safe' | 'all' | 'none';
  /**
   * As --allow-tool.
   */
  allowTools?: string[];
  /**
   * As --expected-failures: a YAML list of checks expected to fail.
   */
  expectedFailures?: string;
  /**
   * Seconds to wait for each response (as --timeout; for a client, for its answers to the test server's requests; for an authorization server, for each of its answers).
   */
  timeout?: number;
  /**
   * Seconds this server (or client, or authorization server) may take in all (default: the matrix's --budget); past it the run is ended and its partial reports kept.
   */
  budget?: number;
  /**
   * Facts shown with the server in the matrix, e.g. implementation: go-sdk.
   */
  labels?: {
    [k: string]: string;
  };
}
