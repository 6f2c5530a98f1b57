import { PassThrough, Readable, Writable, finished } from 'node:stream';
import type { Transcript } from '../transcript.js';
import { Once } from './emitter.js';
import type { ExitInfo } from './transport.js';

/** The two ends a server of the caller's process is given: exactly what a stdio server sees as its stdin and stdout. */
export interface ServeStreams {
  /** Newline-delimited JSON-RPC from the client. Ends when the client ends the session. */
  input: Readable;
  /** Where the server writes its newline-delimited JSON-RPC. */
  output: Writable;
}

/** Starts a server of the caller's process on a fresh pair of streams, once per session; may return a promise. */
export type Serve = (streams: ServeStreams) => unknown;

/** The description and report target of an in-process run. */
export const IN_PROCESS = 'in-process';

/**
 * A server in the caller's process, seen as the stdio transport sees a process: `stdin` and `stdout` are the client's
 * ends of the server's `input` and `output`. It "exits" (how: 'crashed') when `serve` throws or rejects, or when it
 * destroys a stream with an error; it is done ('closed') when the client closes the session. Nothing of it can outlive
 * close(): no timer, and both streams destroyed, so a server that never ends keeps no process alive.
 */
export class InProcessServer {
  readonly pid = undefined;
  /** What the server reads. */
  private readonly input = new Readable({ read() {} });
  /**
   * The client writes here, and each chunk is handed to the server's `input` at once: a server that throws while it
   * takes a line throws into this hand-over, which ends it as a crash instead of the caller's process.
   */
  readonly stdin: Writable;
  /** The server writes here as `output`; the client reads it. */
  readonly stdout = new PassThrough();
  private readonly exit = new Once<ExitInfo>();
  private rawExit: ExitInfo | undefined;
  private closing = false;
  private readonly exitWaiters = new Set<() => void>();

  constructor(private readonly transcript: Transcript) {
    const deliver = (chunk: Buffer | null) => {
      try {
        this.input.push(chunk);
      } catch (err) {
        this.crash(`threw on its input: ${describe(err)}`);
      }
    };
    // Handed over a turn of the event loop later, as a pipe delivers: a server's own setImmediate work (a notification
    // it sends after its answer) comes before the client's next line, as it would over stdio.
    this.stdin = new Writable({
      write: (chunk: Buffer, _encoding, done) => void setImmediate(() => (deliver(chunk), done())),
      final: (done) => void setImmediate(() => (deliver(null), done())),
    });
    this.input.on('error', (err) => this.crash(`input error: ${err.message}`));
    // A stream error is the server's fault and ends it, as a crash does; it never reaches the caller as an unhandled error.
    this.stdin.on('error', (err) => this.crash(`input error: ${err.message}`));
    this.stdout.on('error', (err) => this.crash(`output error: ${err.message}`));
  }

  /** Calls `serve`; a throw, now or later (its promise), ends the server like a process that crashed. */
  start(serve: Serve): void {
    this.transcript.add('event', 'serve (in-process)');
    try {
      const started = serve({ input: this.input, output: this.stdout });
      if (isThenable(started))
        started.then(undefined, (err: unknown) => this.crash(`serve rejected: ${describe(err)}`));
    } catch (err) {
      this.crash(`serve threw: ${describe(err)}`);
    }
  }

  /** How the server ended, once it has. */
  get exited(): ExitInfo | undefined {
    return this.exit.value;
  }

  get ended(): boolean {
    return this.rawExit !== undefined;
  }

  /** Not crashed and not being closed by the client. */
  get running(): boolean {
    return !this.rawExit && !this.closing;
  }

  onExit(listener: (exit: ExitInfo) => void): void {
    this.exit.on(listener);
  }

  /** There is no stderr: what ended the server is in its exit (`why`) and the transcript. */
  stderrTail(): string {
    return '';
  }

  /** Waits up to `ms` for the server to end; true when it has. */
  waitRawExit(ms: number): Promise<boolean> {
    if (this.rawExit) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.exitWaiters.delete(wake);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.exitWaiters.delete(wake);
        resolve(false);
      }, ms);
      this.exitWaiters.add(wake);
    });
  }

  /**
   * Ends the session: ends the server's input (what closing stdin is to a process) once the lines before it are handed
   * over, then destroys the streams on the next turn, once what the server wrote at once has been read. A process would
   * be signalled; a function cannot be.
   */
  async stop(closeInput: boolean): Promise<ExitInfo> {
    if (!this.rawExit) {
      this.closing = true;
      if (closeInput) {
        this.transcript.add('event', 'close input');
        // Finished (or destroyed by a crash meanwhile): the server has had its input's end.
        await new Promise<void>((resolve) => finished(this.stdin.end(), () => resolve()));
      }
      this.end({ code: null, signal: null, how: 'closed' }, 'session closed');
    }
    return this.exit.value ?? new Promise((resolve) => this.exit.on(resolve));
  }

  private crash(why: string): void {
    this.end(
      this.closing
        ? { code: null, signal: null, how: 'closed' }
        : { code: null, signal: null, how: 'crashed', why: `the server crashed: ${why}` },
      why,
    );
  }

  private end(info: ExitInfo, why: string): void {
    if (this.rawExit) return;
    this.rawExit = info;
    this.transcript.add('event', info.how === 'crashed' ? `server crashed: ${why}` : why);
    for (const wake of [...this.exitWaiters]) wake();
    // As a process's output is drained before its exit is told: what the server wrote before it crashed is read first.
    setImmediate(() => {
      // What the server writes from now on goes nowhere: a destroyed stream drops writes without an error event.
      for (const stream of [this.stdin, this.input, this.stdout]) stream.destroy();
      this.exit.fire(info);
    });
  }
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  (typeof value === 'object' || typeof value === 'function') &&
  value !== null &&
  typeof (value as { then?: unknown }).then === 'function';

const describe = (err: unknown): string => (err instanceof Error ? `${err.name}: ${err.message}` : String(err));

/** Starts `serve` on a fresh pair of streams. */
export function startInProcess(serve: Serve, transcript: Transcript): InProcessServer {
  const server = new InProcessServer(transcript);
  server.start(serve);
  return server;
}
