// The test server over stdio. Each start of `{server}` (the bridge process, stdio-bridge.ts) connects back here and is
// its own session with its own Conversation: the bytes the client wrote on the server's stdin arrive as written,
// stamped with when the bridge read them, then the end of stdin and any signal. This side splits them into messages,
// records what a check needs to judge the framing and the shutdown, and answers as the scenario says. A client of the
// caller's process gets the same through `spawn()`, a stand-in for a child process.
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { type Server, type Socket, createServer } from 'node:net';
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { type Conversation, CANCELLED, DEFERRED, type Outlet } from './conversation.js';

/** What a check reads of one server start over stdio. Times are ms since the epoch, on the clock of the writer. */
export interface StdioState {
  /** Which start of the scenario's server this was (1-based). */
  spawn: number;
  /** Bytes the client wrote on stdin. */
  bytes: number;
  /** Messages written across several lines (embedded newlines): the frame's seq and how many lines it took. */
  multiline: { seq: number; lines: number }[];
  /** Bytes on stdin that were no message: blank lines, a last message with no newline after it. */
  strays: { text: string; why: string; at: number }[];
  /** Lines that were not valid UTF-8. */
  invalidUtf8: number;
  /** When the client closed the server's stdin, if it did. */
  stdinClosedAt?: number;
  /** Signals the server got, in order. */
  signals: { signal: string; at: number }[];
  /** How the server ended: its stdin closed (it then exits), a signal, killed outright (no word from it), or stopped by the run at the end of the scenario. */
  end?: 'stdin' | 'signal' | 'killed' | 'run';
}

/** Lines a message may take before the test server stops waiting for it to become JSON. */
const MAX_JOIN_LINES = 1000;
const MAX_PENDING_BYTES = 4 * 1024 * 1024;
const epochNow = () => performance.timeOrigin + performance.now();

/** Where the session's frames go, and how the server "exits". */
interface Channel {
  write(text: string): void;
  close(): void;
}

/** One start of the server: one conversation. */
export class StdioSession {
  readonly state: StdioState;
  private buffer: Buffer = Buffer.alloc(0);
  /** Lines that did not parse alone, waiting for the rest of a message written across lines. */
  private joining: string[] = [];
  private closed = false;
  private readonly out: Outlet;

  constructor(
    readonly conv: Conversation,
    spawn: number,
    private readonly channel: Channel,
  ) {
    this.state = { spawn, bytes: 0, multiline: [], strays: [], invalidUtf8: 0, signals: [] };
    this.out = (m) => {
      if (!this.closed) this.channel.write(`${JSON.stringify(m)}\n`);
    };
    conv.transcript.add('event', `stdio server start ${spawn}`);
  }

  get ended(): boolean {
    return this.state.end !== undefined;
  }

  /** Bytes from the client, as written. */
  data(chunk: Buffer, at: number): void {
    if (this.ended) return;
    this.state.bytes += chunk.length;
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    let nl = this.buffer.indexOf(0x0a);
    while (nl >= 0) {
      this.line(this.buffer.subarray(0, nl), at);
      this.buffer = this.buffer.subarray(nl + 1);
      nl = this.buffer.indexOf(0x0a);
    }
    if (this.buffer.length > MAX_PENDING_BYTES) {
      this.stray(this.buffer.toString('utf8', 0, 200), 'more than 4 MiB without a newline', at);
      this.buffer = Buffer.alloc(0);
    }
  }

  /** The client closed stdin: the server answers nothing more and exits, as a stdio server should. */
  eof(at: number): void {
    if (this.ended) return;
    this.state.stdinClosedAt = at;
    this.conv.transcript.add('event', 'stdin closed by the client');
    if (this.buffer.length > 0) {
      const text = this.buffer.toString('utf8');
      this.buffer = Buffer.alloc(0);
      if (this.joining.length === 0 && parse(text) !== undefined) {
        this.stray(text, 'the last message has no newline after it', at);
        this.conv.record('in', text);
      } else this.line(Buffer.from(text), at);
    }
    this.flushJoining();
    this.finish('stdin');
  }

  /** A signal reached the server (it dies of it). */
  signal(signal: string, at: number): void {
    if (this.ended) return;
    this.state.signals.push({ signal, at });
    this.conv.transcript.add('event', `${signal} received${this.state.stdinClosedAt ? '' : ' (stdin still open)'}`);
    this.finish('signal');
  }

  /** The server's end went away without a word: killed (SIGKILL), or by the run when `byRun`. */
  gone(byRun = false): void {
    if (this.ended) return;
    this.conv.transcript.add('event', byRun ? 'stopped by the run' : 'the server process was killed');
    this.finish(byRun ? 'run' : 'killed');
  }

  private finish(end: StdioState['end']): void {
    this.state.end = end;
    this.closed = true;
    this.channel.close();
  }

  private stray(text: string, why: string, at: number): void {
    this.state.strays.push({ text: text.slice(0, 200), why, at });
    this.conv.transcript.add('event', `stdin: ${why}: ${JSON.stringify(text.slice(0, 80))}`);
  }

  private line(raw: Buffer, at: number): void {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
    } catch {
      this.state.invalidUtf8++;
      text = raw.toString('utf8');
    }
    if (this.joining.length > 0) {
      const joined = [...this.joining, text].join('\n');
      const whole = parse(joined);
      if (whole !== undefined) {
        const frame = this.conv.record('in', joined);
        this.state.multiline.push({ seq: frame.seq, lines: this.joining.length + 1 });
        this.joining = [];
        // The frame's own object, as over HTTP: a check finds the request the server answered by identity.
        return void this.dispatch(frame.message);
      }
      if (parse(text) === undefined && text.trim() !== '' && this.joining.length < MAX_JOIN_LINES) {
        this.joining.push(text);
        return;
      }
      this.flushJoining();
    }
    if (text.trim() === '') return void this.stray(text, 'a blank line', at);
    const one = parse(text);
    if (one !== undefined) return void this.dispatch(this.conv.record('in', text).message);
    // The start of a message written across lines (pretty-printed), or bytes that are no JSON at all.
    if (/^\s*[[{]/.test(text)) this.joining.push(text);
    else this.notJson(text);
  }

  /** Lines that never became a message are what they are: frames that are not JSON. */
  private flushJoining(): void {
    for (const text of this.joining.splice(0)) this.notJson(text);
  }

  private notJson(text: string): void {
    this.conv.record('in', text);
    this.conv.send(this.out, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
  }

  /** Each message is handled as it comes (a call may wait for the client's answer to a request of the server). */
  private async dispatch(message: unknown): Promise<void> {
    for (const m of Array.isArray(message) ? message : [message]) {
      const reply = await this.conv.handle(m, this.out);
      // A request the client cancelled gets no answer.
      if (this.closed || reply === undefined || reply === CANCELLED) continue;
      // A dropped SSE stream has no stdio counterpart; such scenarios are not run over stdio.
      const answer =
        reply === DEFERRED
          ? {
              jsonrpc: '2.0',
              id: (m as { id?: unknown }).id,
              error: { code: -32603, message: 'needs Streamable HTTP' },
            }
          : reply;
      this.conv.send(this.out, answer);
    }
  }
}

const parse = (text: string): { value: unknown } | undefined => {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
};

/** Where the bridge is: dist/ beside this file once built; from src/ (tests), the built one. */
export function bridgePath(): string {
  const here = fileURLToPath(new URL('./stdio-bridge.js', import.meta.url));
  return existsSync(here) ? here : here.replace(/([/\\])src([/\\])/, '$1dist$2');
}

const quoted = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);

/** A child process as a client of the caller's process sees it: what `spawn()` gives. */
export class LocalServerProcess extends EventEmitter {
  readonly pid = undefined;
  readonly stdin: Writable;
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  exitCode: number | null = null;
  signalCode: string | null = null;
  private session?: StdioSession;
  private done = false;

  constructor() {
    super();
    this.stdin = new Writable({
      write: (chunk: Buffer, _enc, cb) => {
        this.session?.data(Buffer.from(chunk), epochNow());
        cb();
      },
      final: (cb) => {
        this.session?.eof(epochNow());
        cb();
      },
    });
  }

  attach(session: StdioSession): void {
    this.session = session;
  }

  /** What the session calls when the server exits. */
  exit(): void {
    if (this.done) return;
    this.done = true;
    const signal = this.session?.state.end === 'signal' ? (this.session.state.signals.at(-1)?.signal ?? null) : null;
    if (signal === null) this.exitCode = 0;
    this.signalCode = signal;
    this.stdout.end();
    this.stderr.end();
    setImmediate(() => {
      this.emit('exit', this.exitCode, signal);
      this.emit('close', this.exitCode, signal);
    });
  }

  kill(signal: NodeJS.Signals | number = 'SIGTERM'): boolean {
    if (this.done) return false;
    const name = typeof signal === 'number' ? (signal === 9 ? 'SIGKILL' : `signal ${signal}`) : signal;
    // SIGKILL gives the server no word: it is gone.
    if (name === 'SIGKILL') this.session?.gone();
    else this.session?.signal(name, epochNow());
    return true;
  }
}

/**
 * The stdio test server of one scenario: a loopback listener the bridges connect to, each connection a session. The
 * conversation of each session comes from `newConversation`.
 */
export class StdioTestServer {
  readonly sessions: StdioSession[] = [];
  private readonly token = randomBytes(16).toString('hex');
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  /** Bridge pids of sessions, to stop any still running at the end (one blocked writing to a client not reading). */
  private readonly pids = new Map<StdioSession, number>();
  private port = 0;
  private readonly waiters = new Set<() => void>();

  constructor(private readonly newConversation: () => Conversation) {
    this.server = createServer((socket) => this.accept(socket));
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as { port: number }).port;
  }

  /** The command line `{server}` stands for. */
  get command(): string {
    return [process.execPath, bridgePath(), '--connect', `127.0.0.1:${this.port}/${this.token}`].map(quoted).join(' ');
  }

  /** A server in the caller's process, as `spawn` would start one. */
  spawn(): LocalServerProcess {
    const child = new LocalServerProcess();
    const session = this.open({
      write: (text) => child.stdout.write(text),
      close: () => child.exit(),
    });
    child.attach(session);
    return child;
  }

  /** Resolves when every session has ended, or after `ms`. */
  async settle(ms: number): Promise<void> {
    if (this.sessions.every((s) => s.ended)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  /** The run stops the sessions still open (their bridges exit as the connection closes). */
  stopOpen(): void {
    for (const s of this.sessions) s.gone(true);
  }

  /** Ends every session still open (the run stops them) and stops listening. */
  async close(): Promise<void> {
    for (const s of this.sessions) {
      const pid = this.pids.get(s);
      if (!s.ended && pid !== undefined)
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone already
        }
      s.gone(true);
    }
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private open(channel: Channel): StdioSession {
    const session = new StdioSession(this.newConversation(), this.sessions.length + 1, {
      write: channel.write,
      close: () => {
        channel.close();
        if (this.sessions.every((s) => s.ended)) for (const w of [...this.waiters]) w();
      },
    });
    this.sessions.push(session);
    return session;
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    let session: StdioSession | undefined;
    let rest = '';
    const hello = setTimeout(() => socket.destroy(), 30_000);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const record = parse(line)?.value as
          | { t?: number; hello?: string; pid?: number; data?: string; end?: boolean; signal?: string }
          | undefined;
        if (!record) continue;
        const at = typeof record.t === 'number' ? record.t : epochNow();
        if (!session) {
          clearTimeout(hello);
          if (record.hello !== this.token) return void socket.destroy();
          session = this.open({ write: (text) => socket.write(text), close: () => socket.end() });
          if (typeof record.pid === 'number') this.pids.set(session, record.pid);
        } else if (typeof record.data === 'string') session.data(Buffer.from(record.data, 'base64'), at);
        else if (record.end) session.eof(at);
        else if (typeof record.signal === 'string') session.signal(record.signal, at);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(hello);
      this.sockets.delete(socket);
      session?.gone();
    });
  }
}
