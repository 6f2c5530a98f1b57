import type { TranscriptEntry } from '../schema/generated/report.js';

/** How the server process ended. */
export interface ExitInfo {
  code: number | null;
  signal: string | null;
  /** How shutdown went: exited by itself after stdin closed, or needed SIGTERM / SIGKILL; 'crashed' when it ended before we asked. */
  how: 'stdin-eof' | 'sigterm' | 'sigkill' | 'crashed';
}

/** One line the server wrote to stdout, decoded. */
export interface InboundLine {
  entry: TranscriptEntry;
  /** Parsed JSON, when the line is valid JSON. */
  json?: unknown;
  /** Why the line is not a usable message: not UTF-8, not JSON, blank… */
  problem?: string;
}

/** Moves raw frames; knows nothing about MCP. */
export interface Transport {
  /** Writes one message (serialised JSON, without the newline) and records it in the transcript. */
  send(text: string): TranscriptEntry;
  /** Writes bytes exactly as given (malformed-input probes) and records them. */
  sendRaw(text: string): TranscriptEntry;
  onLine(listener: (line: InboundLine) => void): void;
  onExit(listener: (exit: ExitInfo) => void): void;
  readonly exited: ExitInfo | undefined;
  /** Last lines of stderr, for error messages. */
  stderrTail(lines?: number): string;
  /** Shuts the server down (stdio order: close stdin, wait, SIGTERM, SIGKILL) and kills its whole process tree. */
  close(): Promise<ExitInfo>;
}
