import type { TranscriptEntry } from '../schema/generated/report.js';

/**
 * The transports a server can speak: stdio, Streamable HTTP, and the legacy HTTP+SSE of 2024-11-05; and `in-process`, a
 * server of the caller's process given the two streams a stdio server has (the stdio wire without a process).
 */
export type TransportKind = 'stdio' | 'http' | 'sse' | 'in-process';

/** Whether the transport is the stdio wire: newline-delimited JSON on a pair of streams, with or without a process. */
export const overStdio = (kind: TransportKind | undefined): boolean => kind === 'stdio' || kind === 'in-process';

/** How the server process ended, or (over HTTP, in-process) how the session did. */
export interface ExitInfo {
  code: number | null;
  signal: string | null;
  /**
   * How shutdown went: exited by itself after stdin closed, or needed SIGTERM / SIGKILL; 'crashed' when it
   * ended before we asked (an in-process server: it threw); 'closed' when the client ended an HTTP session (the server
   * lives on) or an in-process one.
   */
  how: 'stdin-eof' | 'sigterm' | 'sigkill' | 'crashed' | 'closed';
  /** What ended it, when there is no process whose exit code says (an in-process server that threw). */
  why?: string;
}

/** One inbound message: a stdout line, an HTTP response body or an SSE event's data, decoded. */
export interface InboundLine {
  entry: TranscriptEntry;
  /** Parsed JSON, when the line is valid JSON. */
  json?: unknown;
  /** Why the line is not a usable message: not UTF-8, not JSON, blank… */
  problem?: string;
  /**
   * HTTP: the id of the request this error answers. It came as the body of an HTTP error status to the
   * POST of that request, without an id of its own (SDKs send id null there, requirements §4.5). null: it came back
   * on the POST of a request whose id could not be echoed (`"id": null`), which it answers.
   */
  answers?: string | number | null;
  /**
   * HTTP: this came as the body of an HTTP error status (`status`) to the POST sent as transcript entry `post`. A
   * JSON-RPC body answers that POST, whatever its id (`answers`); a JSON body that is not JSON-RPC is no message at all
   * (`problem` says so), and the request gets the transport's own error.
   */
  httpError?: { status: number; post: number };
  /**
   * Made up by the transport to answer a request the server will never answer (an HTTP error without a
   * JSON-RPC body, a POST response without the reply, no HTTP response at all): not a server frame.
   */
  synthetic?: boolean;
}

/** Moves raw frames; knows nothing about MCP. */
/** Tool name → argument name → header name (the `{Name}` of `Mcp-Param-{Name}`). */
export type ParamHeaders = ReadonlyMap<string, Readonly<Record<string, string>>>;

export interface Transport {
  readonly kind: TransportKind;
  /** Writes one message (serialised JSON, without the newline) and records it in the transcript. */
  send(text: string): TranscriptEntry;
  /** Writes bytes exactly as given (malformed-input probes) and records them. */
  sendRaw(text: string): TranscriptEntry;
  onLine(listener: (line: InboundLine) => void): void;
  onExit(listener: (exit: ExitInfo) => void): void;
  /** stdio: the server closed its stdout but its process runs on, so nothing more can arrive; `why` says so. */
  onDeaf?(listener: (why: string) => void): void;
  /**
   * stdio: settles once the server has started (written its first line, exited, been closed, or taken its start-up
   * allowance): a request's clock runs from then, never while its process waits its turn to start or for the CPU.
   */
  readonly started?: Promise<void>;
  /** stdio: part of a line has come and its end not yet (a large answer on its way, maybe held back by the line budget). */
  receiving?(): boolean;
  /** stdio: the server's process, where this run started it. */
  readonly pid?: number;
  /** Set once the server process ended, or (HTTP) the session was closed or its server process ended. */
  readonly exited: ExitInfo | undefined;
  /** Last lines of stderr, for error messages ('' for a server this run did not start). */
  stderrTail(lines?: number): string;
  /** The protocol version initialize negotiated: HTTP transports send it on every later request. */
  setProtocolVersion?(version: string): void;
  /** The version every request of a stateless-wire session names (undefined: the initialize wire); HTTP sends it as a header. */
  setStatelessVersion?(version: string | undefined): void;
  /** Per tool, the arguments its inputSchema asks to mirror as `Mcp-Param-{header}` (2026-07-28 `x-mcp-header`); HTTP sends them. */
  setParamHeaders?(headers: ParamHeaders): void;
  /** Ends the session: stdio shuts the server down and kills its process tree; HTTP deletes the session. */
  close(): Promise<ExitInfo>;
}
