import { statSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { execa } from 'execa';
import type { TranscriptEntry } from '../schema/generated/report.js';
import { FRAME_TEXT_CAP, type Transcript } from '../session/transcript.js';
import { LaunchError } from '../target/launch-error.js';
import type { LaunchPlan } from '../target/launch-plan.js';
import { descendants, killTree } from './process-tree.js';
import type { ExitInfo, InboundLine, Transport } from './transport.js';

export { LaunchError } from '../target/launch-error.js';

export interface StdioOptions {
  /** A stdout line longer than this is reported (and not kept in memory). Default 64 MiB. */
  maxLineBytes?: number;
  /** How long close() waits for the server to exit after stdin is closed. Default 2000 ms. */
  graceMs?: number;
  /** How long close() waits after SIGTERM before SIGKILL. Default 2000 ms. */
  termMs?: number;
  /** Stderr text recorded in the transcript, in bytes; later lines only reach stderrTail(). Default 1 MiB. */
  stderrTranscriptBytes?: number;
}

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
const DEFAULT_GRACE_MS = 2000;
const DEFAULT_TERM_MS = 2000;
const DEFAULT_STDERR_TRANSCRIPT_BYTES = 1024 * 1024;
/** After SIGKILL, the longest close() waits for the exit notification. */
const KILL_WAIT_MS = 5000;
/** After the process exits, how long to wait for the rest of its stdout/stderr before reporting the exit. */
const DRAIN_MS = 500;
/** Bytes of an over-long line kept for the transcript. */
const PREFIX_BYTES = FRAME_TEXT_CAP;
const STDERR_TAIL_LINES = 200;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** One line cut from a byte stream. `data` is the whole line, or only its prefix when `overflow`. */
interface RawLine {
  data: Buffer;
  /** Bytes in the line, without the newline. */
  bytes: number;
  overflow: boolean;
  /** The stream ended without a newline after this line. */
  partial: boolean;
}

/** Splits a byte stream on \n without decoding chunks; memory per line is bounded by maxBytes. */
class LineSplitter {
  private parts: Buffer[] = [];
  private kept = 0;
  private total = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly prefixBytes: number,
    private readonly emit: (line: RawLine) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl < 0) {
        this.append(chunk.subarray(start));
        return;
      }
      this.append(chunk.subarray(start, nl));
      this.flush(false);
      start = nl + 1;
    }
  }

  /** End of stream: a pending partial line is emitted. */
  end(): void {
    if (this.total > 0) this.flush(true);
  }

  private append(piece: Buffer): void {
    if (piece.length === 0) return;
    this.total += piece.length;
    if (this.total <= this.maxBytes) {
      this.parts.push(piece);
      this.kept += piece.length;
      return;
    }
    // Over the limit: keep a copied prefix only, so the chunks can be garbage-collected.
    if (this.kept > this.prefixBytes || this.parts.length > 1) {
      const prefix = Buffer.concat(this.parts, this.kept).subarray(0, this.prefixBytes);
      this.parts = [Buffer.from(prefix)];
      this.kept = this.parts[0]!.length;
    }
    if (this.kept < this.prefixBytes) {
      const extra = Buffer.from(piece.subarray(0, this.prefixBytes - this.kept));
      this.parts.push(extra);
      this.kept += extra.length;
    }
  }

  private flush(partial: boolean): void {
    const line: RawLine = {
      data: this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.kept),
      bytes: this.total,
      overflow: this.total > this.maxBytes,
      partial,
    };
    this.parts = [];
    this.kept = 0;
    this.total = 0;
    this.emit(line);
  }
}

function quoteArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : JSON.stringify(arg);
}

function formatCommand(command: string, args: readonly string[]): string {
  return [command, ...args].map(quoteArg).join(' ');
}

/** Calls every listener; one that throws does not stop the others or corrupt the reader. */
function callAll<T>(listeners: readonly ((value: T) => void)[], value: T): void {
  for (const listener of listeners) {
    try {
      listener(value);
    } catch (err) {
      queueMicrotask(() => {
        throw err;
      });
    }
  }
}

/** Servers still running, killed (group and known descendants) when this process exits. */
const live = new Set<StdioTransport>();
let exitHookInstalled = false;

/** SIGKILLs every server this process started and has not closed, with their process trees. Synchronous. */
export function killAllServers(): void {
  for (const transport of live) transport.killNow();
  live.clear();
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', killAllServers);
}

type Subprocess = ReturnType<typeof execa>;

type Phase = 'running' | 'stdin-eof' | 'sigterm' | 'sigkill';

/** A server spawned as a child process, speaking newline-delimited JSON on stdin/stdout. */
export class StdioTransport implements Transport {
  readonly pid: number;
  private readonly stdin: Writable;
  private readonly stdout: Readable;
  private readonly stderr: Readable;
  private readonly maxLineBytes: number;
  private readonly graceMs: number;
  private readonly termMs: number;
  private stderrBudget: number;
  private stderrDropped = 0;
  private readonly tail: string[] = [];

  private lineListeners: ((line: InboundLine) => void)[] = [];
  /** Lines that arrived before anyone listened. */
  private pendingLines: InboundLine[] | undefined = [];
  private exitListeners: ((exit: ExitInfo) => void)[] = [];

  private phase: Phase = 'running';
  private rawExit: { code: number | null; signal: string | null; how: ExitInfo['how'] } | undefined;
  private rawExitWaiters: (() => void)[] = [];
  private exitInfo: ExitInfo | undefined;
  private readonly finished: Promise<void>;
  private closing: Promise<ExitInfo> | undefined;
  private stdoutEnded = false;
  private stderrEnded = false;
  private streamWaiters: (() => boolean)[] = [];
  private stdinErrorSeen = false;
  /** Descendants seen so far (collected at close() start, and by killNow()). */
  private knownDescendants: number[] = [];

  /** @internal use {@link startStdio} */
  constructor(
    subprocess: Subprocess,
    pid: number,
    readonly plan: LaunchPlan,
    private readonly transcript: Transcript,
    opts: StdioOptions,
  ) {
    this.pid = pid;
    this.maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.graceMs = opts.graceMs ?? DEFAULT_GRACE_MS;
    this.termMs = opts.termMs ?? DEFAULT_TERM_MS;
    this.stderrBudget = opts.stderrTranscriptBytes ?? DEFAULT_STDERR_TRANSCRIPT_BYTES;
    this.stdin = subprocess.stdin!;
    this.stdout = subprocess.stdout!;
    this.stderr = subprocess.stderr!;

    this.stdin.on('error', (err: NodeJS.ErrnoException) => {
      if (this.stdinErrorSeen) return;
      this.stdinErrorSeen = true;
      this.transcript.add('event', `stdin error: ${err.code ?? err.message}`);
    });

    const out = new LineSplitter(this.maxLineBytes, PREFIX_BYTES, (line) => this.onStdoutLine(line));
    this.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    this.stdout.once('end', () => out.end());
    this.stdout.once('close', () => {
      this.stdoutEnded = true;
      this.wakeStreamWaiters();
    });
    this.stdout.on('error', () => {});

    const err = new LineSplitter(PREFIX_BYTES, PREFIX_BYTES, (line) => this.onStderrLine(line));
    this.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    this.stderr.once('end', () => err.end());
    this.stderr.once('close', () => {
      this.stderrEnded = true;
      this.wakeStreamWaiters();
    });
    this.stderr.on('error', () => {});

    let resolveFinished!: () => void;
    this.finished = new Promise<void>((resolve) => (resolveFinished = resolve));
    subprocess.on('exit', (code: number | null, signal: NodeJS.Signals | null) => {
      this.rawExit = { code, signal, how: this.phase === 'running' ? 'crashed' : this.phase };
      // Stays in `live` until close(): the group may still hold children of a crashed server.
      for (const wake of this.rawExitWaiters.splice(0)) wake();
      void this.waitStreams(DRAIN_MS).then(() => {
        this.finish();
        resolveFinished();
      });
    });
    subprocess.on('error', (e: Error) => {
      if (this.rawExit) return;
      this.transcript.add('event', `process error: ${e.message}`);
    });
  }

  send(text: string): TranscriptEntry {
    return this.write(text + '\n', text);
  }

  sendRaw(text: string): TranscriptEntry {
    return this.write(text, text);
  }

  onLine(listener: (line: InboundLine) => void): void {
    this.lineListeners.push(listener);
    const pending = this.pendingLines;
    if (pending) {
      this.pendingLines = undefined;
      if (pending.length > 0) queueMicrotask(() => pending.forEach((line) => callAll(this.lineListeners, line)));
    }
  }

  onExit(listener: (exit: ExitInfo) => void): void {
    this.exitListeners.push(listener);
    const info = this.exitInfo;
    if (info) queueMicrotask(() => callAll([listener], info));
  }

  get exited(): ExitInfo | undefined {
    return this.exitInfo;
  }

  stderrTail(lines = 20): string {
    return lines <= 0 ? '' : this.tail.slice(-lines).join('\n');
  }

  close(): Promise<ExitInfo> {
    return (this.closing ??= this.shutdown());
  }

  /** Synchronous SIGKILL of the server's group and every descendant (for process exit). */
  killNow(): void {
    const pids = this.rawExit ? this.knownDescendants : [...this.knownDescendants, ...descendants(this.pid)];
    killTree(this.pid, pids);
  }

  private async shutdown(): Promise<ExitInfo> {
    if (!this.rawExit) {
      // Collected while the server lives: once it dies its children are reparented and out of reach.
      this.knownDescendants = descendants(this.pid);
      this.phase = 'stdin-eof';
      this.transcript.add('event', 'close stdin');
      this.stdin.end();
      if (!(await this.waitRawExit(this.graceMs))) {
        this.phase = 'sigterm';
        this.transcript.add('event', `no exit ${this.graceMs} ms after stdin closed; SIGTERM`);
        this.signalGroup('SIGTERM');
        if (!(await this.waitRawExit(this.termMs))) {
          this.phase = 'sigkill';
          this.transcript.add('event', `no exit ${this.termMs} ms after SIGTERM; SIGKILL`);
          this.signalGroup('SIGKILL');
          if (!(await this.waitRawExit(KILL_WAIT_MS))) {
            this.transcript.add('event', `no exit ${KILL_WAIT_MS} ms after SIGKILL`);
          }
        }
      }
    }
    killTree(this.pid, this.knownDescendants);
    live.delete(this);
    if (this.rawExit) await this.finished;
    else this.finish();
    // Release the pipes even if a process we could not find still holds them open.
    this.stdin.destroy();
    this.stdout.destroy();
    this.stderr.destroy();
    return this.exitInfo!;
  }

  private signalGroup(signal: NodeJS.Signals): void {
    try {
      process.kill(process.platform === 'win32' ? this.pid : -this.pid, signal);
    } catch {
      try {
        process.kill(this.pid, signal);
      } catch {
        // already gone
      }
    }
  }

  private finish(): void {
    if (this.exitInfo) return;
    const raw = this.rawExit;
    const info: ExitInfo = raw
      ? { code: raw.code, signal: raw.signal, how: raw.how }
      : { code: null, signal: null, how: 'sigkill' };
    if (this.stderrDropped > 0) {
      this.transcript.add('event', `${this.stderrDropped} more stderr lines not recorded`);
    }
    this.transcript.add('event', `exit code ${info.code ?? 'none'} signal ${info.signal ?? 'none'}`);
    this.exitInfo = info;
    callAll(this.exitListeners, info);
  }

  private waitRawExit(ms: number): Promise<boolean> {
    if (this.rawExit) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.rawExitWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private waitStreams(ms: number): Promise<void> {
    if (this.stdoutEnded && this.stderrEnded) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.streamWaiters.push(() => {
        if (!(this.stdoutEnded && this.stderrEnded)) return false;
        clearTimeout(timer);
        resolve();
        return true;
      });
    });
  }

  private wakeStreamWaiters(): void {
    this.streamWaiters = this.streamWaiters.filter((waiter) => !waiter());
  }

  /** Writes to stdin; after the server died (or stdin was closed) the write is only recorded, as an event. */
  private write(data: string, recorded: string): TranscriptEntry {
    if (this.rawExit || this.stdin.writableEnded || this.stdin.destroyed) {
      const why = this.rawExit ? 'server exited' : 'stdin closed';
      const shown = recorded.length > 200 ? recorded.slice(0, 200) + '…' : recorded;
      return this.transcript.add('event', `write ignored (${why}): ${shown}`);
    }
    const entry = this.transcript.add('send', recorded);
    this.stdin.write(data);
    return entry;
  }

  private onStdoutLine(raw: RawLine): void {
    const problems: string[] = [];
    let entry: TranscriptEntry;
    let json: unknown;
    let parsed = false;
    if (raw.overflow) {
      problems.push(`line exceeds ${this.maxLineBytes} bytes`);
      if (raw.partial) problems.push('partial line at end of stream');
      entry = this.transcript.add('recv', lenientUtf8.decode(raw.data), raw.bytes);
      entry.truncated = true;
    } else {
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
      if (raw.partial) problems.push('partial line at end of stream');
      entry = this.transcript.add('recv', text, raw.bytes);
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
    if (this.pendingLines) this.pendingLines.push(line);
    else callAll(this.lineListeners, line);
  }

  private onStderrLine(raw: RawLine): void {
    let data = raw.data;
    if (!raw.overflow && data.length > 0 && data[data.length - 1] === 0x0d) data = data.subarray(0, data.length - 1);
    const text = lenientUtf8.decode(data);
    this.tail.push(raw.overflow ? text + '…' : text);
    if (this.tail.length > STDERR_TAIL_LINES * 2) this.tail.splice(0, this.tail.length - STDERR_TAIL_LINES);
    if (this.stderrBudget > 0) {
      this.stderrBudget -= raw.bytes;
      const entry = this.transcript.add('stderr', text, raw.bytes);
      if (raw.overflow) entry.truncated = true;
    } else {
      this.stderrDropped++;
    }
  }
}

/**
 * Spawns the server of `plan` in its own process group, with piped stdio.
 * Rejects with a {@link LaunchError} when the command cannot be started at all.
 */
export async function startStdio(plan: LaunchPlan, transcript: Transcript, opts: StdioOptions = {}): Promise<StdioTransport> {
  const shown = formatCommand(plan.command, plan.args);
  let cwdOk = false;
  try {
    cwdOk = statSync(plan.cwd).isDirectory();
  } catch {
    cwdOk = false;
  }
  if (!cwdOk) {
    transcript.add('event', `spawn failed: working directory not found: ${plan.cwd}`);
    throw new LaunchError(`cannot start ${plan.command}: working directory not found: ${plan.cwd}`, plan.command, 'ENOENT');
  }

  let subprocess: Subprocess;
  try {
    subprocess = execa(plan.command, plan.args, {
      cwd: plan.cwd,
      env: plan.env,
      extendEnv: true,
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
      buffer: false,
      encoding: 'buffer',
      stripFinalNewline: false,
      reject: false,
      cleanup: true,
      detached: true,
      forceKillAfterDelay: false,
    });
  } catch (err) {
    const message = (err as Error).message.split('\n')[0];
    transcript.add('event', `spawn failed: ${message}`);
    throw new LaunchError(`cannot start ${plan.command}: ${message}`, plan.command, undefined, '', { cause: err });
  }
  // The result promise never rejects (reject: false); keep it from being reported as unhandled anyway.
  void Promise.resolve(subprocess).catch(() => {});

  if (subprocess.pid === undefined) {
    // Node reports a failed spawn (ENOENT, EACCES …) with an 'error' event on the next tick.
    const spawnError = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      subprocess.once('error', (err: NodeJS.ErrnoException) => resolve(err));
      subprocess.once('spawn', () => resolve(undefined));
    });
    const code = spawnError?.code;
    const why =
      code === 'ENOENT'
        ? 'not found (ENOENT)'
        : code === 'EACCES'
          ? 'permission denied (EACCES; is it executable?)'
          : (spawnError?.message.split('\n')[0] ?? 'no process id');
    transcript.add('event', `spawn failed: ${shown}: ${why}`);
    throw new LaunchError(`cannot start ${plan.command}: ${why}`, plan.command, code, '', { cause: spawnError });
  }

  transcript.add('event', `spawn ${shown} (pid ${subprocess.pid})`);
  const transport = new StdioTransport(subprocess, subprocess.pid, plan, transcript, opts);
  live.add(transport);
  installExitHook();
  return transport;
}
