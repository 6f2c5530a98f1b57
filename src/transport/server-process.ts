import { type ChildProcess, spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { FRAME_TEXT_CAP, type Transcript } from '../transcript.js';
import { LaunchError } from '../target/launch-error.js';
import type { LaunchPlan } from '../target/launch-plan.js';
import { Once } from './emitter.js';
import { LineSplitter, type RawLine } from './line-splitter.js';
import { descendants, killTree } from './process-tree.js';
import type { ExitInfo } from './transport.js';

export interface ProcessOptions {
  /** How long stop() waits for the server to exit after stdin is closed. Default 2000 ms. */
  graceMs?: number;
  /** How long stop() waits after SIGTERM before SIGKILL. Default 2000 ms. */
  termMs?: number;
  /** Stderr text recorded in the transcript, in bytes; later lines only reach stderrTail(). Default 64 KiB: stderr floods are common, and the tail says the most. */
  stderrTranscriptBytes?: number;
}

const DEFAULT_GRACE_MS = 2000;
const DEFAULT_TERM_MS = 2000;
const DEFAULT_STDERR_TRANSCRIPT_BYTES = 64 * 1024;
/** After SIGKILL, the longest stop() waits for the exit notification. */
const KILL_WAIT_MS = 5000;
/** After the process exits, how long to wait for the rest of its stdout/stderr before reporting the exit. */
const DRAIN_MS = 500;
const STDERR_TAIL_LINES = 200;

const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** The argument as a shell reads it back: quoted when it holds anything but plain characters. */
export function quoteArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : JSON.stringify(arg);
}

export function formatCommand(command: string, args: readonly string[]): string {
  return [command, ...args].map(quoteArg).join(' ');
}

/** Servers still running, killed (group and known descendants) when this process exits. */
const live = new Set<ServerProcess>();
let exitHookInstalled = false;

/** What a run cost in server processes: how many it started, and the most alive at once (any run's, while it ran). */
export interface ProcessCount {
  started: number;
  mostAlive: number;
  /** How many were let start side by side, and the first start that decided it (see StartGate). */
  startsAtOnce?: number;
  firstStartMs?: number;
}
const counts = new Set<ProcessCount>();

/** Counts the server processes started from now on, until `stop()`: a run's own cost, for --verbose and report.json. */
export function countProcesses(): { stop(): ProcessCount } {
  const count: ProcessCount = { started: 0, mostAlive: live.size };
  counts.add(count);
  return {
    stop: () => {
      counts.delete(count);
      return count;
    },
  };
}

/** SIGKILLs every server this process started and has not stopped, with their process trees. Synchronous. */
export function killAllServers(): void {
  for (const server of live) server.killNow();
  live.clear();
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', killAllServers);
}

/**
 * Starts the command in its own process group with piped stdio; `started` settles with the spawn error, if any.
 * Windows runs `.cmd`/`.bat` shims (npx, installed servers) only through cmd.exe with its own quoting, which execa
 * does: it is loaded there only, as it is slow to load.
 */
async function spawnChild(
  plan: LaunchPlan,
): Promise<{ child: ChildProcess; started: Promise<NodeJS.ErrnoException | undefined> }> {
  let child: ChildProcess;
  if (process.platform !== 'win32') {
    child = spawn(plan.command, plan.args, {
      cwd: plan.cwd,
      env: { ...process.env, ...plan.env },
      stdio: 'pipe',
      detached: true,
    });
  } else {
    const { execa } = await import('execa');
    const subprocess = execa(plan.command, plan.args, {
      cwd: plan.cwd,
      env: plan.env,
      extendEnv: true,
      stdio: 'pipe',
      buffer: false,
      encoding: 'buffer',
      stripFinalNewline: false,
      reject: false,
      detached: true,
      forceKillAfterDelay: false,
    });
    // The result promise never rejects (reject: false); keep it from being reported as unhandled anyway.
    void Promise.resolve(subprocess).catch(() => {});
    child = subprocess;
  }
  // Node reports a failed spawn (ENOENT, EACCES …) with an 'error' event on the next tick: listen at once.
  const started = new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
    child.once('error', (err: NodeJS.ErrnoException) => resolve(err));
    child.once('spawn', () => resolve(undefined));
  });
  return { child, started };
}

type Phase = 'running' | 'stdin-eof' | 'sigterm' | 'sigkill';

/**
 * A server process in its own process group: drains and records its stderr, reports how it ended, and
 * stops it with its whole process tree. The transport that talks to it owns stdin and stdout, unless
 * `logStdout` says stdout is logging too (an HTTP server): then its lines are recorded like stderr.
 */
export class ServerProcess {
  readonly pid: number;
  readonly stdin: Writable;
  readonly stdout: Readable;
  private readonly stderr: Readable;
  private readonly graceMs: number;
  private readonly termMs: number;
  private stderrBudget: number;
  private stderrDropped = 0;
  private readonly tail: string[] = [];
  private readonly exit = new Once<ExitInfo>();

  private phase: Phase = 'running';
  private rawExit: ExitInfo | undefined;
  private rawExitWaiters: (() => void)[] = [];
  private readonly finished: Promise<void>;
  private stopping: Promise<ExitInfo> | undefined;
  private stdoutEnded = false;
  private stderrEnded = false;
  private streamWaiters: (() => boolean)[] = [];
  /** Descendants seen so far (collected at stop() start, and by killNow()). */
  private knownDescendants: number[] = [];

  /** @internal use {@link spawnServer} */
  constructor(
    subprocess: ChildProcess,
    pid: number,
    private readonly transcript: Transcript,
    opts: ProcessOptions,
    logStdout: boolean,
  ) {
    this.pid = pid;
    this.graceMs = opts.graceMs ?? DEFAULT_GRACE_MS;
    this.termMs = opts.termMs ?? DEFAULT_TERM_MS;
    this.stderrBudget = opts.stderrTranscriptBytes ?? DEFAULT_STDERR_TRANSCRIPT_BYTES;
    this.stdin = subprocess.stdin!;
    this.stdout = subprocess.stdout!;
    this.stderr = subprocess.stderr!;

    const logs = [this.stderr, ...(logStdout ? [this.stdout] : [])];
    for (const stream of logs) {
      const lines = new LineSplitter(FRAME_TEXT_CAP, FRAME_TEXT_CAP, (line) => this.onLogLine(line));
      stream.on('data', (chunk: Buffer) => lines.push(chunk));
      stream.once('end', () => lines.end());
      stream.on('error', () => {});
    }
    this.stdout.once('close', () => {
      this.stdoutEnded = true;
      this.wakeStreamWaiters();
    });
    this.stderr.once('close', () => {
      this.stderrEnded = true;
      this.wakeStreamWaiters();
    });

    let resolveFinished!: () => void;
    this.finished = new Promise<void>((resolve) => (resolveFinished = resolve));
    subprocess.on('exit', (code: number | null, signal: NodeJS.Signals | null) => {
      this.rawExit = { code, signal, how: this.phase === 'running' ? 'crashed' : this.phase };
      // Stays in `live` until stop(): the group may still hold children of a crashed server.
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

  /** How the process ended, once it has and its output is drained. */
  get exited(): ExitInfo | undefined {
    return this.exit.value;
  }

  /** The process is gone (its output may still be draining). */
  get ended(): boolean {
    return this.rawExit !== undefined;
  }

  onExit(listener: (exit: ExitInfo) => void): void {
    this.exit.on(listener);
  }

  stderrTail(lines = 20): string {
    return lines <= 0 ? '' : this.tail.slice(-lines).join('\n');
  }

  /**
   * Stops the server: closes stdin and waits (`closeStdin`, the stdio way), then SIGTERM, then SIGKILL,
   * each with its wait; then kills the whole tree and releases the pipes. Safe to call more than once.
   */
  stop(closeStdin: boolean): Promise<ExitInfo> {
    return (this.stopping ??= this.shutdown(closeStdin));
  }

  /** Synchronous SIGKILL of the server's group and every descendant (for process exit). */
  killNow(): void {
    const pids = this.rawExit ? this.knownDescendants : [...this.knownDescendants, ...descendants(this.pid)];
    killTree(this.pid, pids);
  }

  private async shutdown(closeStdin: boolean): Promise<ExitInfo> {
    if (!this.rawExit) {
      // Collected while the server lives: once it dies its children are reparented and out of reach.
      this.knownDescendants = descendants(this.pid);
      let exited = false;
      if (closeStdin) {
        this.phase = 'stdin-eof';
        this.transcript.add('event', 'close stdin');
        this.stdin.end();
        exited = await this.waitRawExit(this.graceMs);
        if (!exited) this.transcript.add('event', `no exit ${this.graceMs} ms after stdin closed; SIGTERM`);
      } else {
        this.transcript.add('event', 'SIGTERM');
      }
      if (!exited) {
        this.phase = 'sigterm';
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
    return this.exit.value!;
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
    if (this.exit.value) return;
    const info: ExitInfo = this.rawExit ?? { code: null, signal: null, how: 'sigkill' };
    if (this.stderrDropped > 0) {
      this.transcript.add('event', `${this.stderrDropped} more stderr lines not recorded`);
    }
    this.transcript.add('event', `exit code ${info.code ?? 'none'} signal ${info.signal ?? 'none'}`);
    this.exit.fire(info);
  }

  /** Still running and not being stopped by us. */
  get running(): boolean {
    return this.phase === 'running' && !this.rawExit;
  }

  /** Waits up to `ms` for the process to end; true when it has. */
  waitRawExit(ms: number): Promise<boolean> {
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

  private onLogLine(raw: RawLine): void {
    let data = raw.data;
    if (!raw.overflow && data.length > 0 && data[data.length - 1] === 0x0d) data = data.subarray(0, data.length - 1);
    const text = lenientUtf8.decode(data);
    this.tail.push(raw.overflow ? text + '…' : text);
    if (this.tail.length > STDERR_TAIL_LINES * 2) this.tail.splice(0, this.tail.length - STDERR_TAIL_LINES);
    if (this.stderrBudget > 0) {
      this.stderrBudget -= raw.bytes;
      this.transcript.add('stderr', text, raw.bytes, raw.sha256);
    } else {
      this.stderrDropped++;
    }
  }
}

/**
 * Spawns the command of `plan` in its own process group, with piped stdio (stdout is the caller's unless
 * `logStdout`). Rejects with a {@link LaunchError} when the command cannot be started at all.
 */
export async function spawnServer(
  plan: LaunchPlan,
  transcript: Transcript,
  opts: ProcessOptions,
  logStdout: boolean,
): Promise<ServerProcess> {
  const shown = formatCommand(plan.command, plan.args);
  let cwdOk = false;
  try {
    cwdOk = statSync(plan.cwd).isDirectory();
  } catch {
    cwdOk = false;
  }
  if (!cwdOk) {
    transcript.add('event', `spawn failed: working directory not found: ${plan.cwd}`);
    throw new LaunchError(
      `cannot start ${plan.command}: working directory not found: ${plan.cwd}`,
      plan.command,
      'ENOENT',
    );
  }

  let subprocess: ChildProcess;
  let started: Promise<NodeJS.ErrnoException | undefined>;
  try {
    ({ child: subprocess, started } = await spawnChild(plan));
  } catch (err) {
    const message = (err as Error).message.split('\n')[0];
    transcript.add('event', `spawn failed: ${message}`);
    throw new LaunchError(`cannot start ${plan.command}: ${message}`, plan.command, undefined, '', { cause: err });
  }

  if (subprocess.pid === undefined) {
    const spawnError = await started;
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
  const server = new ServerProcess(subprocess, subprocess.pid, transcript, opts, logStdout);
  live.add(server);
  for (const count of counts) {
    count.started++;
    count.mostAlive = Math.max(count.mostAlive, live.size);
  }
  installExitHook();
  return server;
}
