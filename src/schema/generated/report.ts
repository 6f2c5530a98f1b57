/* Generated from schema/ by `npm run generate`. Do not edit. */

export type Status = 'pass' | 'fail' | 'warn' | 'skip' | 'error';
export type Level = 'MUST' | 'SHOULD' | 'MAY';

/**
 * reports/report.json: the verdict of one mcp-conformance run. Every other report is rendered from it.
 */
export interface Report {
  /**
   * Names this run; junit.xml, index.html and badge.svg written with this report name it too, so a reader can tell that the files belong together.
   */
  runId?: string;
  tool: {
    name: string;
    version: string;
  };
  target: Target;
  server?: Server;
  /**
   * A client run: the client under test as it named itself (clientInfo), the revision it ran at, its capabilities, and each scenario it was started for.
   */
  client?: {
    name?: string;
    version?: string;
    protocolVersion?: string;
    capabilities?: {
      [k: string]: unknown;
    };
    scenarios: {
      name: string;
      revision: string;
      frames: number;
      exit: string;
    }[];
  };
  /**
   * Reports side by side in this one (a server's revisions from a --revision auto|all run, or several servers merged): each one's check prefix, target and server. Absent for a report of one run, whose own fields say these.
   */
  runs?: Run[];
  startedAt: string;
  durationMs: number;
  strict?: boolean;
  /**
   * Seed of the generated checks (properties): --seed with it replays them.
   */
  seed?: number;
  /**
   * The run was stopped before every check ran (signal or budget).
   */
  interrupted?: boolean;
  /**
   * Server processes this run started, and the most alive at once while it ran (runs side by side counted together). Absent when the run started none (a server at a URL).
   */
  processes?: {
    started: number;
    mostAlive: number;
    /**
     * How many processes the run let start side by side: one a core for a server heavy to start, two a core for a light one.
     */
    startsAtOnce?: number;
    /**
     * What the first process cost until its first line (or answer at its URL), in milliseconds of CPU time where the system says, else of wall time: what decided startsAtOnce.
     */
    firstStartMs?: number;
  };
  summary: Summary;
  checks: CheckResult[];
}
/**
 * What was tested, as the user named it, and how it was launched (secrets redacted).
 */
export interface Target {
  description: string;
  command?: string;
  args?: string[];
  cwd?: string;
  url?: string;
}
/**
 * Identity and negotiated revision; absent when initialize never succeeded.
 */
export interface Server {
  name?: string;
  version?: string;
  title?: string;
  protocolVersion: string;
  capabilities: {
    [k: string]: unknown;
  };
  instructions?: string;
  counts?: {
    tools?: number;
    resources?: number;
    resourceTemplates?: number;
    prompts?: number;
  };
}
/**
 * One report of those side by side.
 */
export interface Run {
  /**
   * What this run's check ids and areas start with, before a slash (e.g. 2026-07-28 in 2026-07-28/tools/call/unknown-tool).
   */
  prefix: string;
  /**
   * The revision this run tested, when the runs are one server's revisions.
   */
  revision?: string;
  target: Target;
  server?: Server;
}
export interface Summary {
  pass: number;
  fail: number;
  warn: number;
  skip: number;
  error: number;
}
export interface CheckResult {
  id: string;
  title: string;
  /**
   * First segment of the id (the first two for client-side/ ids)
   */
  area: string;
  status: Status;
  level: Level;
  requirement: Requirement;
  message: string;
  /**
   * What the specification asks for (any JSON)
   */
  expected?: unknown;
  /**
   * What the server did (any JSON)
   */
  actual?: unknown;
  durationMs: number;
  /**
   * The id of the check that reports the earlier fault this result follows from (e.g. lifecycle/process/alive: the shared server was lost while this check waited on it); fix that one first
   */
  after?: string;
  transcript?: TranscriptEntry[];
  /**
   * The check is listed in the expected-failures file: a fail or warn is expected and does not fail the run, unless its message differs from the one the entry expects; a pass makes the entry stale, which fails the run.
   */
  baseline?: {
    /**
     * The entry that lists it, as written: a check id or a glob
     */
    entry: string;
    reason?: string;
    /**
     * The failure message the entry expects, as written: a substring, or a /pattern/
     */
    message?: string;
    /**
     * The check failed or warned with a message the entry does not expect: a different failure, which the baseline does not excuse
     */
    messageDiffers?: boolean;
  };
}
/**
 * The normative statement a check exercises.
 */
export interface Requirement {
  /**
   * Catalogue id, e.g. base.method-not-found
   */
  id: string;
  level: Level;
  /**
   * Specification URL with anchor
   */
  spec: string;
  /**
   * One-line paraphrase
   */
  text: string;
}
export interface TranscriptEntry {
  seq: number;
  /**
   * send: to the server; recv: from the server (stdout); stderr: a stderr line; event: process start, exit, signal, timeout
   */
  dir: 'send' | 'recv' | 'stderr' | 'event';
  /**
   * Milliseconds since the session started
   */
  t: number;
  bytes: number;
  /**
   * The frame as text; truncated when large
   */
  text: string;
  truncated?: boolean;
  /**
   * For a truncated frame: the first 16 hex digits of the SHA-256 of all its bytes, so two large frames can be told apart
   */
  sha256?: string;
}
