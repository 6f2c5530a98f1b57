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
    /**
     * Every server process counted in started, in the order they started: why each was started and the checks that used it. Of a run of several revisions, this run's own (the whole command's, each with its revision, in the combined report); the auto probe's ones no run went on in are the first run's. Absent in reports written before it was added.
     */
    servers?: ServerStart[];
  };
  criticalPath?: CriticalPath;
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
/**
 * One server process the run started.
 */
export interface ServerStart {
  /**
   * Why it was started: auto probe, shared session, started ahead (and what took it), fresh session for <check>, scratch session (replacing a session <check> killed or disturbed), second connection, alone: <check> again on a server of its own, restart after the server was lost.
   */
  for: string;
  /**
   * The checks that used it, each once, in the order they first did (a session handed on lists its taker too).
   */
  checks: string[];
  /**
   * The revision of the run it served (absent for the auto probe's that no run went on in).
   */
  revision?: string;
  /**
   * Its process id (absent for a server started for a URL).
   */
  pid?: number;
}
/**
 * Where the run's time went: the waits that set its length. Runs side by side each count what both did, as processes does.
 */
export interface CriticalPath {
  /**
   * One line for a reader: the run's length, its server starts, its slowest requests and fixed waits (the HTML report shows it under the header).
   */
  line: string;
  /**
   * Server processes started (count), each timed from its spawn to its first line over stdio (or first answer at its URL), in ms of wall time; one that ended without a line counts but is not timed. Absent when the run started none.
   */
  starts?: {
    count: number;
    medianMs: number;
    maxMs: number;
    totalMs: number;
  };
  /**
   * The slowest answered requests, slowest first: how long each took once the server could read it.
   */
  slowCalls: {
    method: string;
    /**
     * The tool or prompt name, or the resource URI, the request named.
     */
    name?: string;
    ms: number;
  }[];
  /**
   * Windows that wait a set time for something not to happen, and ran their whole length: what each waits for, its length and how often it ran, costliest first.
   */
  fixedWaits: {
    what: string;
    ms: number;
    count: number;
  }[];
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
