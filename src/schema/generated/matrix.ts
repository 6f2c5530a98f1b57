/* Generated from schema/ by `npm run generate`. Do not edit. */

export type Verdict = 'pass' | 'fail' | 'error' | 'no-report';

/**
 * matrix.json: the checks of several servers' (and clients' and authorization servers') runs side by side, one column per server and revision, and one per client or authorization server. matrix.html is rendered from it.
 */
export interface Matrix {
  tool: {
    name: string;
    version: string;
  };
  /**
   * Each server (or client) in the order given, with how its run ended.
   */
  servers: MatrixServerRun[];
  /**
   * One per server and revision run; a server without a report has one column without cells.
   */
  columns: MatrixColumn[];
  /**
   * One per check id, grouped by area (areas in order of first appearance).
   */
  rows: MatrixRow[];
}
export interface MatrixServerRun {
  name: string;
  /**
   * What was judged: a server (the suite played the client), a client (the suite served it) or an authorization server (the suite played an MCP client getting a token).
   */
  side?: 'server' | 'client' | 'authorization';
  /**
   * What was run: the command it was started with, or its target (the report's target).
   */
  command?: string;
  /**
   * The server's report folder, relative to the matrix's folder.
   */
  folder: string;
  verdict: Verdict;
  summary: Counts;
  /**
   * Wall time of the server's run, when the matrix ran it.
   */
  durationMs?: number;
  /**
   * The run's exit code, when the matrix ran it.
   */
  exitCode?: number;
  /**
   * The run overran its budget and was ended.
   */
  timedOut?: boolean;
  /**
   * Why there is no report, or why it is partial.
   */
  reason?: string;
  labels?: {
    [k: string]: string;
  };
}
export interface Counts {
  pass: number;
  fail: number;
  warn: number;
  skip: number;
  error: number;
}
export interface MatrixColumn {
  /**
   * Index into servers.
   */
  server: number;
  /**
   * The revision this run stood for (its folder, when the server ran in several), else the one the server negotiated; for a client, the revisions its scenarios ran at (newest first, joined by ' + '); - when there is no report, and for an authorization server (it has no revision).
   */
  revision: string;
  /**
   * Folder of this run's index.html, relative to the matrix's folder.
   */
  folder: string;
  verdict: Verdict;
  summary: Counts;
  durationMs?: number;
  interrupted?: boolean;
  serverInfo?: {
    name?: string;
    version?: string;
    protocolVersion?: string;
  };
  /**
   * A client's run: the client as it named itself (clientInfo) and the revision it negotiated.
   */
  clientInfo?: {
    name?: string;
    version?: string;
    protocolVersion?: string;
  };
  /**
   * Cells whose verdict differs from their row's majority.
   */
  differs: number;
}
export interface MatrixRow {
  id: string;
  area: string;
  title: string;
  level: 'MUST' | 'SHOULD' | 'MAY';
  /**
   * The status more than half of the judged (non-skip) cells have, if any.
   */
  majority?: 'pass' | 'fail' | 'warn' | 'skip' | 'error';
  /**
   * One per column, in column order; null where that run has no such check.
   */
  cells: (null | MatrixCell)[];
}
export interface MatrixCell {
  status: 'pass' | 'fail' | 'warn' | 'skip' | 'error';
  /**
   * Judged, and not the row's majority.
   */
  differs?: boolean;
  /**
   * For a fail, warn or error: what the run saw (bounded).
   */
  message?: string;
  /**
   * For a fail or warn: the requirement the check tests, from the catalogue.
   */
  requirement?: {
    id: string;
    level: 'MUST' | 'SHOULD' | 'MAY';
    spec: string;
    text: string;
  };
}
