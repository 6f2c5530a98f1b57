import type { Readable, Writable } from 'node:stream';
import { recordStart } from '../timing.js';
import type { TranscriptEntry } from '../schema/generated/report.js';
import { FRAME_TEXT_CAP, shortHash, type Transcript } from '../transcript.js';
import type { LaunchPlan } from '../target/launch-plan.js';
import { Feed, Once } from './emitter.js';
import { LARGE_LINES } from './collect.js';
import { ASSEMBLING, SMALL_LINE_BYTES } from './line-budget.js';
import { LineSplitter, type RawLine } from './line-splitter.js';
import { type ProcessOptions, type ServerProcess, spawnServer } from './server-process.js';
import { cpuMs, treeReader } from './process-tree.js';
import { gateFor } from './start-gate.js';
import { type InProcessServer, type Serve, startInProcess } from './in-process.js';
import type { ExitInfo, InboundLine, Transport } from './transport.js';

export { LaunchError } from '../target/launch-error.js';
export { killAllServers } from './server-process.js';

export interface StdioOptions extends ProcessOptions {
  /** A stdout line longer than this is reported (and not kept in memory). Default 16 MiB. */
  maxLineBytes?: number;
  /** How long the server may take to start before the clocks of requests sent to it run anyway, at least (see Transport.started). Default 10 s. */
  startAllowanceMs?: number;
  /** Aborted: a start still waiting its turn is given up (StartAborted). */
  signal?: AbortSignal;
}

const DEFAULT_START_ALLOWANCE_MS = 10_000;
/** A starting process is looked at this often; asleep at this many looks in a row (every process of its tree), it has started. */
const IDLE_POLL_MS = 100;
const IDLE_POLLS = 2;
/** Where the allowance is counted in CPU time, a start still ends after this many times it in wall time. */
const WALL_BACKSTOP_FACTOR = 10;

/** What a transport's start holds: its place in the start gate, and when its clocks may run. */
interface Start {
  /** Gives the place back, with what the start cost (ms of CPU, or of wall time) when the server wrote a line. */
  leave(costMs?: number): void;
  allowanceMs: number;
}

// Well above any sane frame, yet low enough that a few concurrent hostile lines cannot take the tool's memory.
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
/** After stdout ends, how long the process may take to exit before it counts as running on without stdout. */
const STDOUT_EOF_GRACE_MS = 200;
/** Bytes of an over-long line kept for the transcript. */
const PREFIX_BYTES = FRAME_TEXT_CAP;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** The server end the stdio wire talks to: a child process, or a server of the caller's process (no pid). */
type StdioPeer = Pick<
  ServerProcess | InProcessServer,
  'stdin' | 'stdout' | 'exited' | 'ended' | 'running' | 'onExit' | 'waitRawExit' | 'stderrTail' | 'stop'
> & { pid: number | undefined };

/** A server speaking newline-delimited JSON on stdin/stdout: a child process, or (kind in-process) the caller's streams. */
export class StdioTransport implements Transport {
  readonly kind: 'stdio' | 'in-process';
  readonly pid: number | undefined;
  private readonly stdin: Writable;
  private readonly stdout: Readable;
  private readonly maxLineBytes: number;
  private readonly lines = new Feed<InboundLine>();
  private readonly deaf = new Once<string>();
  private stdinErrorSeen = false;
  private readonly splitter: LineSplitter;
  /** A process's start (see Transport.started); none in-process, where the server is there at once. */
  readonly started?: Promise<void>;
  private startedNow: (costMs?: number) => void = () => {};
  private readonly spawnedAt = performance.now();
  private startedYet = false;
  private lineSeen = false;

  /** @internal use {@link startStdio} */
  constructor(
    private readonly server: StdioPeer,
    readonly plan: LaunchPlan,
    private readonly transcript: Transcript,
    opts: StdioOptions,
    start?: Start,
  ) {
    this.kind = server.pid === undefined ? 'in-process' : 'stdio';
    this.pid = server.pid;
    if (start) {
      this.started = new Promise((resolve) => {
        // A server that never writes still gets its requests' clocks going once it has spent its allowance, and gives
        // its place in the gate back with what it spent meanwhile. The allowance is counted in the CPU time of its
        // process tree where the system says (a loaded machine slows a start in wall time, not in CPU time), with a
        // wall-clock backstop for a process that neither runs nor sleeps (blocked on a disk, or stopped).
        const tree = this.pid === undefined || process.platform !== 'linux' ? undefined : treeReader(this.pid);
        const timer = setTimeout(
          () => this.startedNow(this.startCost()),
          tree ? start.allowanceMs * WALL_BACKSTOP_FACTOR : start.allowanceMs,
        );
        // Started too once it sleeps, waiting for input: a server writes nothing until it is asked (a session of the
        // stateless wire, or one started ahead, may not ask for a while), yet its start is over.
        let asleep = 0;
        const idle = setInterval(() => {
          const now = tree?.();
          asleep = now?.sleeping ? asleep + 1 : 0;
          if (now === undefined) clearInterval(idle);
          else if (asleep >= IDLE_POLLS) {
            this.startedNow(now.cpuMs);
            this.firstLine();
          } else if (now.cpuMs >= start.allowanceMs) this.startedNow(now.cpuMs);
        }, IDLE_POLL_MS);
        this.startedNow = (costMs) => {
          if (this.startedYet) return;
          this.startedYet = true;
          clearTimeout(timer);
          clearInterval(idle);
          start.leave(costMs);
          resolve();
        };
      });
      server.onExit(() => {
        this.startedNow();
        this.firstLine(false);
      });
    }
    this.maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.stdin = server.stdin;
    this.stdout = server.stdout;

    this.stdin.on('error', (err: NodeJS.ErrnoException) => {
      if (this.stdinErrorSeen) return;
      this.stdinErrorSeen = true;
      this.transcript.add('event', `stdin error: ${err.code ?? err.message}`);
    });

    const out = new LineSplitter(this.maxLineBytes, PREFIX_BYTES, (line) => this.onStdoutLine(line));
    this.splitter = out;
    this.stdout.on('data', (chunk: Buffer) => {
      out.push(chunk);
      ASSEMBLING.hold(this.stdout, out.pending);
    });
    // A stream that is gone holds nothing, or the lines of other sessions would wait on it.
    this.stdout.once('close', () => ASSEMBLING.hold(this.stdout, 0));
    this.stdout.once('end', () => {
      out.end();
      ASSEMBLING.hold(this.stdout, 0);
      // A crashing server closes stdout as it exits, and its exit says why; one that lives on without stdout is deaf.
      void server.waitRawExit(STDOUT_EOF_GRACE_MS).then((exited) => {
        if (exited || !server.running) return;
        const inProcess = this.kind === 'in-process';
        this.transcript.add(
          'event',
          inProcess ? 'output ended while the server runs on' : 'stdout closed while the process runs on',
        );
        this.deaf.fire(
          inProcess
            ? 'server ended its output while the session was open'
            : 'server closed its stdout (the process is still running)',
        );
      });
    });
    this.stdout.on('error', () => {});
  }

  send(text: string): TranscriptEntry {
    return this.write(text + '\n', text);
  }

  sendRaw(text: string): TranscriptEntry {
    return this.write(text, text);
  }

  onLine(listener: (line: InboundLine) => void): void {
    this.lines.on(listener);
  }

  onExit(listener: (exit: ExitInfo) => void): void {
    this.server.onExit(listener);
  }

  onDeaf(listener: (why: string) => void): void {
    this.deaf.on(listener);
  }

  receiving(): boolean {
    return this.splitter.pending > 0;
  }

  get exited(): ExitInfo | undefined {
    return this.server.exited;
  }

  stderrTail(lines = 20): string {
    return this.server.stderrTail(lines);
  }

  /** Closes stdin, waits, then SIGTERM, then SIGKILL, and kills the whole process tree (in-process: ends both streams). */
  close(): Promise<ExitInfo> {
    this.startedNow();
    return this.server.stop(true);
  }

  /** Writes to stdin; after the server died (or stdin was closed) the write is only recorded, as an event. */
  private write(data: string, recorded: string): TranscriptEntry {
    if (this.server.ended || this.stdin.writableEnded || this.stdin.destroyed) {
      const why = this.server.ended ? 'server exited' : 'stdin closed';
      const shown = recorded.length > 200 ? recorded.slice(0, 200) + '…' : recorded;
      return this.transcript.add('event', `write ignored (${why}): ${shown}`);
    }
    const entry = this.transcript.add('send', recorded);
    // The writes of one tick (many requests are in flight at once) leave in one system call.
    if (this.stdin.writableCorked === 0) {
      this.stdin.cork();
      process.nextTick(() => this.stdin.uncork());
    }
    this.stdin.write(data);
    return entry;
  }

  /**
   * Records a process's start: its time to its first line, or to when it was found asleep waiting for input (a server
   * that writes nothing until asked); none when it exited first (see recordStart).
   */
  private firstLine(wrote = true): void {
    if (this.lineSeen || this.pid === undefined) return;
    this.lineSeen = true;
    recordStart(wrote ? performance.now() - this.spawnedAt : undefined);
  }

  /** What the process has cost so far: its CPU time where the system says, else the wall time since spawn. */
  private startCost(): number {
    return (this.pid === undefined ? undefined : cpuMs(this.pid)) ?? performance.now() - this.spawnedAt;
  }

  private onStdoutLine(raw: RawLine): void {
    // Its first line shows the server is up and reading: it has started. What that cost is its CPU time where the
    // system says (the wall time since spawn counts the suite's own load, or a blocked event loop, too).
    if (!this.startedYet) this.startedNow(this.startCost());
    this.firstLine();
    const problems: string[] = [];
    let entry: TranscriptEntry;
    let json: unknown;
    let parsed = false;
    if (raw.overflow) {
      problems.push(`line exceeds ${this.maxLineBytes} bytes`);
      if (raw.partial) problems.push('partial line at end of stream');
      entry = this.transcript.add('recv', lenientUtf8.decode(raw.data), raw.bytes, raw.sha256);
    } else {
      // A huge line's chunks are dead once joined, its bytes once decoded: collected before each next copy is made.
      LARGE_LINES.copying(raw.bytes);
      const { text, utf8, sha256 } = decodeLine(raw, problems);
      // The bytes are not needed once decoded: a huge line is not held twice while it is parsed.
      raw.data = EMPTY;
      LARGE_LINES.copying(raw.bytes);
      if (raw.partial) problems.push('partial line at end of stream');
      entry = this.transcript.add('recv', text, raw.bytes, sha256);
      if (text.trim() === '') {
        problems.push('blank line');
      } else if (utf8) {
        try {
          json = JSON.parse(text);
          parsed = true;
        } catch (e) {
          const message = (e as Error).message;
          problems.push(`not JSON: ${message.length > 200 ? message.slice(0, 200) + '…' : message}`);
        }
      }
    }
    const line: InboundLine = { entry };
    if (parsed) line.json = json;
    if (problems.length > 0) line.problem = problems.join('; ');
    this.lines.emit(line);
    // An over-long line was never kept whole; a large one leaves copies of itself for the garbage collector.
    if (!raw.overflow && raw.bytes > SMALL_LINE_BYTES) LARGE_LINES.handedOn(raw.bytes);
  }
}

const EMPTY = Buffer.alloc(0);

/** A line's text (CR of a CRLF ending stripped), and the hash of its bytes when the transcript keeps only a prefix of it. */
function decodeLine(raw: RawLine, problems: string[]): { text: string; utf8: boolean; sha256?: string } {
  let data = raw.data;
  if (data.length > 0 && data[data.length - 1] === 0x0d) {
    data = data.subarray(0, data.length - 1);
    problems.push('CRLF line ending');
  }
  let text: string;
  let utf8 = true;
  try {
    text = strictUtf8.decode(data);
  } catch {
    utf8 = false;
    text = lenientUtf8.decode(data);
    problems.push('not UTF-8');
  }
  // Hashed from the bytes at hand, rather than encoding the decoded text back into another copy of the line.
  return text.length > FRAME_TEXT_CAP ? { text, utf8, sha256: shortHash(data) } : { text, utf8 };
}

/**
 * Spawns the server of `plan` in its own process group, with piped stdio.
 * Rejects with a {@link LaunchError} when the command cannot be started at all.
 */
export async function startStdio(
  plan: LaunchPlan,
  transcript: Transcript,
  opts: StdioOptions = {},
): Promise<StdioTransport> {
  // Server processes of one command start no more at once than the machine runs well (see StartGate).
  const gate = gateFor(plan);
  const leave = await gate.enter(opts.signal);
  const allowanceMs = gate.allowance(opts.startAllowanceMs ?? DEFAULT_START_ALLOWANCE_MS);
  const server = await spawnServer(plan, transcript, opts, false).catch((err: unknown) => {
    leave();
    throw err;
  });
  return new StdioTransport(server, plan, transcript, opts, { leave, allowanceMs });
}

/** Starts `serve` in this process on a fresh pair of streams, talked to exactly as a stdio server. */
export function startServe(
  serve: Serve,
  plan: LaunchPlan,
  transcript: Transcript,
  opts: StdioOptions = {},
): StdioTransport {
  return new StdioTransport(startInProcess(serve, transcript), plan, transcript, opts);
}
