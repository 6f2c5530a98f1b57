import type { TranscriptEntry } from '../schema/generated/report.js';
import { recordCall, recordWait } from '../timing.js';
import type { InboundLine, ParamHeaders, Transport } from '../transport/transport.js';
import type { Transcript } from '../transcript.js';
import { isObject } from '../json.js';

export type RequestId = string | number;

/** A JSON-RPC message as received: nothing about its shape is trusted. */
export type Message = Record<string, unknown>;

/** A request this client sent and is waiting on (or was). */
export interface Exchange {
  id: RequestId;
  method: string;
  params?: unknown;
  sent: TranscriptEntry;
  /** Once it timed out: until when (performance.now()) an answer still counts as a late one rather than silence. */
  graceUntil?: number;
  /**
   * Its answer came after it had timed out: when (ms after it was sent) and the frame; `inGrace`: within one more
   * --timeout of timing out, the one window in which a late answer counts as an answer, however long the session lived.
   */
  late?: { afterMs: number; entry: TranscriptEntry; inGrace: boolean };
}

/** The server's answer to one request. */
export interface Reply {
  message: Message;
  entry: TranscriptEntry;
  /** The request's own transcript entry. */
  sent: TranscriptEntry;
  /** The response id matched the request only after converting types (e.g. 1 answered as "1"). */
  looseId?: boolean;
  /** Made up by the transport (an HTTP error status without a JSON-RPC body): its error message says what came. */
  synthetic?: boolean;
}

/** What the session learned about one inbound frame, for the passive frame checks. */
export interface InboundEvent {
  line: InboundLine;
  /** The message inside the line (one element when the line was a batch array). */
  message?: Message;
  /** The line was a JSON array. */
  batch?: boolean;
  kind: 'response' | 'request' | 'notification' | 'invalid';
  /** For responses: the request it answers, when one matches. */
  exchange?: Exchange;
  /** The response came after its request had timed out. */
  late?: boolean;
  /**
   * The response answers a malformed line the client sent on purpose (that line): an id no request could carry (null,
   * none, or the line's own unusable id). The check that sent the line judges it; the frame checks set it aside.
   */
  probe?: string;
  looseId?: boolean;
  /** The session's negotiated revision at the time (undefined before initialize). */
  revision?: string;
  /** Which session of the run the frame came from, for rules that keep state per session. */
  session: number;
  /** notifications/progress: whether a request of this session carried its progressToken. */
  progressTokenSent?: boolean;
  /** The requests of this session not yet answered when the frame came (for rules about what may cross on the wire). */
  inFlight?: () => Exchange[];
  /** The capabilities the client declared in this session (none, unless a check declared some). */
  clientCapabilities?: Record<string, unknown>;
}

/** Answers a server→client request: a JSON-RPC result or error object; undefined leaves it to the default answer. */
export type ServerRequestHandler = (
  message: Message,
) => { result: unknown } | { error: { code: number; message: string } } | undefined;

export class RequestTimeout extends Error {
  /** `exchange`: the request that went unanswered (its params say what was asked; a late answer is noted on it). */
  constructor(
    readonly method: string,
    readonly ms: number,
    readonly exchange?: Exchange,
  ) {
    super(`no response to ${method} within ${ms} ms`);
  }
}

export class SessionClosed extends Error {
  /** `stderr`: the tail of the server's stderr when the session was lost, which often says why. */
  constructor(
    readonly method: string,
    detail: string,
    readonly stderr?: string,
  ) {
    super(`server closed the connection before answering ${method}: ${detail}`);
  }
}

interface Pending {
  exchange: Exchange;
  resolve(reply: Reply): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout | undefined;
  /** When the request's clock started (its server could read it). */
  armedAt?: number;
}

const key = (id: unknown) => `${typeof id}:${String(id)}`;

/** What a request id may be: a string or an integer (MCP; JSON-RPC discourages fractions). */
const isRequestId = (id: unknown) => typeof id === 'string' || Number.isInteger(id);

/** The ids a raw line carries (the line, or each message of a batch, with an `id`); none when it is not JSON. */
function lineIds(line: string): unknown[] {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return [];
  }
  return (Array.isArray(json) ? json : [json]).filter((m) => isObject(m) && 'id' in m).map((m) => (m as Message).id);
}

/** Milliseconds as seconds for messages: `10.3 s`. */
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * A JSON-RPC client over one transport: id correlation, per-request timeouts, many requests in
 * flight, answers to server→client requests, and a record of every frame.
 */
let sessions = 0;

export class Session {
  /** Set by discovery once initialize (or, on the stateless wire, server/discover) succeeded. */
  revision?: string;
  private meta?: Record<string, unknown>;
  /** What the client declared at initialize, when it declared anything; the frame checks judge requests by it. */
  clientCapabilities?: Record<string, unknown>;
  /** Answers the server's own requests in a session that declared client capabilities. */
  serverRequestHandler?: ServerRequestHandler;
  readonly number = ++sessions;
  private nextId = 1;
  /** Every request id sent (a few per check; a property's values are bounded by --runs). */
  private readonly sentIds = new Set<string>();
  private readonly pending = new Map<string, Pending>();
  /** Requests that timed out, so a late answer is recognised rather than taken as unsolicited (bounded). */
  private readonly expired = new Map<string, Exchange>();
  /** Answers owed to malformed lines sent on purpose, by the id such an answer carries (JSON): the lines (bounded). */
  private readonly probes = new Map<string, string[]>();
  /** Requests answered after they had timed out, in the order the answers came. */
  readonly lateAnswers: Exchange[] = [];
  /** Told when a late answer comes (see lateGrace). */
  private readonly lateWaiters = new Set<() => void>();
  private readonly listeners = new Set<(e: InboundEvent) => void>();
  /** The progress tokens this session's requests carried (bounded), so a notification naming another is known for what it is. */
  private readonly progressTokens = new Set<string>();
  private readonly messageWaiters = new Set<(e: InboundEvent) => void>();
  private readonly lossListeners: ((why: string, pending: Exchange[]) => void)[] = [];
  /** Why nothing more can arrive: the process exited, or closed its stdout. */
  private lostWhy?: string;
  /** The server process is still starting (see Transport.started): requests sent meanwhile start their clocks later. */
  private starting: boolean;

  constructor(
    readonly transport: Transport,
    readonly transcript: Transcript,
    readonly timeoutMs: number,
  ) {
    this.starting = transport.started !== undefined;
    void transport.started?.then(() => (this.starting = false));
    transport.onLine((line) => this.receive(line));
    transport.onExit((exit) =>
      this.lose(exit.why ?? `process exited (code ${exit.code}, signal ${exit.signal})`, exit.how === 'crashed'),
    );
    transport.onDeaf?.((why) => {
      this.lose(why, true);
      // Deaf and mute, it can only be stopped: started now, the shutdown's waits run alongside the rest of the run.
      void this.close();
    });
  }

  /**
   * The stateless wire (2026-07-28): protocol fields every request carries in `params._meta`, set by discovery.
   * A caller's own `_meta` keys win, so a check can send a wrong version on purpose.
   */
  get requestMeta(): Record<string, unknown> | undefined {
    return this.meta;
  }

  /** The transport learns the version too (HTTP mirrors it in a header of every request); undefined means the initialize wire. */
  set requestMeta(meta: Record<string, unknown> | undefined) {
    this.meta = meta;
    const version = meta?.['io.modelcontextprotocol/protocolVersion'];
    this.transport.setStatelessVersion?.(typeof version === 'string' ? version : undefined);
  }

  /** The stateless wire's `x-mcp-header` arguments per tool (set by discovery), which HTTP mirrors in headers. */
  get paramHeaders(): ParamHeaders | undefined {
    return this.params;
  }

  set paramHeaders(headers: ParamHeaders | undefined) {
    this.params = headers;
    if (headers) this.transport.setParamHeaders?.(headers);
  }

  private params?: ParamHeaders;

  get alive(): boolean {
    return this.lostWhy === undefined && this.transport.exited === undefined;
  }

  /**
   * Waits, at most `ms`, until each of `exchanges` (requests of this session that timed out) is answered late, or the
   * session is lost: before a session is closed, so that a late answer is seen rather than taken for silence.
   */
  lateGrace(exchanges: Exchange[], ms: number): Promise<void> {
    const mine = exchanges.filter((e) => this.expired.get(key(e.id)) === e);
    const waiting = () => this.alive && mine.some((e) => !e.late);
    if (!waiting()) return Promise.resolve();
    // No longer than the last of their windows: an answer after it is silence all the same (Exchange.graceUntil).
    ms = Math.min(ms, Math.max(...mine.map((e) => (e.graceUntil ?? Infinity) - performance.now())));
    return new Promise((resolve) => {
      const check = () => {
        if (waiting()) return;
        clearTimeout(timer);
        this.lateWaiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.lateWaiters.delete(check);
        recordWait('a late answer to a request that timed out (one --timeout)', ms);
        resolve();
      }, ms);
      this.lateWaiters.add(check);
    });
  }

  /** Hears when the server is lost without the client asking (it crashed, or closed its stdout), with the requests it left unanswered. */
  onLost(listener: (why: string, pending: Exchange[]) => void): void {
    this.lossListeners.push(listener);
  }

  /** Fails every request in flight at once: nothing can answer them any more. */
  private lose(why: string, unasked: boolean): void {
    if (this.lostWhy !== undefined) return;
    this.lostWhy = why;
    const pending = [...this.pending.values()];
    this.pending.clear();
    if (unasked)
      for (const l of this.lossListeners)
        l(
          why,
          pending.map((p) => p.exchange),
        );
    const stderr = this.transport.stderrTail();
    for (const p of pending) {
      clearTimeout(p.timer);
      // An answer may still come where the transport outlives the session (an HTTP response stream): it answers a
      // request the client sent, late, and is no unsolicited response.
      this.expire(p.exchange);
      p.reject(new SessionClosed(p.exchange.method, why, stderr));
    }
  }

  /** Frames from the server, as they arrive (used by the frame checks); returns a function that stops listening. */
  onInbound(listener: (e: InboundEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  request(method: string, params?: unknown, opts: { id?: RequestId; timeoutMs?: number } = {}): Promise<Reply> {
    const id = opts.id ?? this.autoId();
    const token = (params as { _meta?: { progressToken?: unknown } } | undefined)?._meta?.progressToken;
    if (typeof token === 'string' || typeof token === 'number') {
      this.progressTokens.add(key(token));
      if (this.progressTokens.size > 1000) this.progressTokens.delete(this.progressTokens.values().next().value!);
    }
    if (this.requestMeta) {
      const own = (params as { _meta?: Record<string, unknown> } | undefined)?._meta;
      params = { ...(params as object), _meta: { ...this.requestMeta, ...own } };
    }
    const frame: Message = { jsonrpc: '2.0', id, method };
    if (params !== undefined) frame.params = params;
    return this.track(id, method, params, opts.timeoutMs ?? this.timeoutMs, () =>
      this.transport.send(JSON.stringify(frame)),
    );
  }

  /** The next id of the session's own: never one sent before, callers' own included (a session may serve several checks in turn). */
  private autoId(): number {
    while (this.sentIds.has(key(this.nextId))) this.nextId++;
    return this.nextId++;
  }

  /** Whether a request with this id went out in this session: an id is never reused within one. */
  hasSent(id: RequestId): boolean {
    return this.sentIds.has(key(id));
  }

  private track(
    id: RequestId,
    method: string,
    params: unknown,
    limit: number,
    write: () => TranscriptEntry,
  ): Promise<Reply> {
    if (!this.alive)
      return Promise.reject(
        new SessionClosed(method, this.lostWhy ?? 'process already exited', this.transport.stderrTail()),
      );
    this.sentIds.add(key(id));
    return new Promise<Reply>((resolve, reject) => {
      const exchange: Exchange = { id, method, params, sent: write() };
      // After a long synchronous stretch, timers fire before the pipe is read: give input that already
      // arrived one turn of the event loop (setImmediate runs after I/O polling) before declaring a timeout.
      const expire = (waited: number, extended: boolean) =>
        setImmediate(() => {
          const pending = this.pending.get(key(id));
          if (pending?.exchange !== exchange) return;
          // A line is on its way (its first bytes came): it may be the answer, slowed by its size or held back by the
          // tool's own line budget, so it gets one more --timeout; a server that is sending is not silent.
          if (!extended && this.transport.receiving?.()) {
            pending.timer = setTimeout(() => expire(waited + this.timeoutMs, true), this.timeoutMs);
            return;
          }
          this.pending.delete(key(id));
          this.expire(exchange);
          exchange.graceUntil = performance.now() + this.timeoutMs;
          this.transcript.add(
            'event',
            `timeout: no response to ${method} (id ${JSON.stringify(id)}) within ${waited} ms`,
          );
          reject(new RequestTimeout(method, waited, exchange));
        });
      const pending: Pending = { exchange, resolve, reject, timer: undefined };
      this.pending.set(key(id), pending);
      // A server still starting cannot read the request yet: its clock runs once the server has started (see
      // Transport.started), so the time it waited for its turn to start, or for the CPU, is never taken for silence.
      // The time it waited reports the start too (to the 100 ms), so a message never says less than was waited.
      const sentAt = performance.now();
      const arm = () => {
        pending.armedAt = performance.now();
        const startWait = Math.round((performance.now() - sentAt) / 100) * 100;
        if (this.pending.get(key(id)) === pending)
          pending.timer = setTimeout(() => expire(limit + startWait, false), limit);
      };
      if (this.starting) void this.transport.started!.then(arm);
      else arm();
    });
  }

  /** Keeps a request given up on (bounded), so that its answer, if it comes, is known for a late one. */
  private expire(exchange: Exchange): void {
    this.expired.set(key(exchange.id), exchange);
    if (this.expired.size > 1000) this.expired.delete(this.expired.keys().next().value!);
  }

  notify(method: string, params?: unknown): TranscriptEntry {
    const frame: Message = { jsonrpc: '2.0', method };
    if (params !== undefined) frame.params = params;
    const text = JSON.stringify(frame);
    return this.transport.send(text);
  }

  /** Writes text exactly as given (malformed-input probes); the caller includes the newline. */
  sendRaw(text: string): TranscriptEntry {
    this.expectProbeAnswer(text.trimEnd(), []);
    return this.transport.sendRaw(text);
  }

  /**
   * A malformed line may be answered with an id no request of the client's can have: null (JSON-RPC 2.0 §5: the id
   * could not be read), or the line's own id where it is not a string or an integer (`{}`, `true`, `1.5`). One such
   * answer per line is the line's (InboundEvent.probe), whenever it comes, the latest line's first; `tracked`: the
   * line's ids the session waits on as requests (requestRaw), whose answers are matched as such.
   */
  private expectProbeAnswer(line: string, tracked: RequestId[]): void {
    const unusable = lineIds(line).filter((id) => !tracked.includes(id as RequestId) && !isRequestId(id));
    for (const id of new Set([null, ...unusable].map((v) => JSON.stringify(v)))) {
      const lines = this.probes.get(id) ?? [];
      lines.push(line);
      this.probes.set(id, lines.slice(-100));
    }
  }

  /** The line an untracked response answers, when its id is one a malformed line sent on purpose is owed. */
  private probeAnswered(id: unknown): string | undefined {
    return this.probes.get(JSON.stringify(id ?? null))?.pop();
  }

  /** A line answered as a request is owed no other answer. */
  private answeredAsRequest(line: string): void {
    for (const lines of this.probes.values()) if (lines.includes(line)) lines.splice(lines.lastIndexOf(line), 1);
  }

  /**
   * Starts recording stray responses (those that answer no request of this session: a request's own answer goes to
   * its caller, and kept here it would hold a possibly huge result for as long as the recording runs); `stop()` returns
   * those that arrived in between. Only responses: a flooding server's notifications would pile up meanwhile.
   */
  record(): { stop(): InboundEvent[] } {
    const seen: InboundEvent[] = [];
    const waiter = (e: InboundEvent) => {
      if (e.kind === 'response' && !e.exchange) seen.push(e);
    };
    this.messageWaiters.add(waiter);
    return {
      stop: () => {
        this.messageWaiters.delete(waiter);
        return seen;
      },
    };
  }

  /**
   * Writes a raw line (without newline) that carries the given ids but is not a valid request (or is a
   * batch), and waits for an answer to each id like a request; `label` names it in the transcript.
   */
  requestRaw(text: string, ids: RequestId[], label: string, timeoutMs = this.timeoutMs): Promise<Reply>[] {
    let sent: TranscriptEntry | undefined;
    this.expectProbeAnswer(text, ids);
    const write = () => (sent ??= this.transport.sendRaw(text + '\n'));
    return ids.map((id) => {
      const reply = this.track(id, label, undefined, timeoutMs, write);
      reply.then(
        () => this.answeredAsRequest(text),
        () => undefined,
      );
      return reply;
    });
  }

  close() {
    return this.transport.close();
  }

  private receive(line: InboundLine): void {
    const json = line.json;
    // A line with a framing problem that still parsed (CRLF) is dispatched; the frame checks see the problem.
    if (json === undefined) {
      this.emit({ line, kind: 'invalid' });
      return;
    }
    if (Array.isArray(json)) {
      for (const item of json) this.dispatch(line, item, true);
      if (json.length === 0) this.emit({ line, kind: 'invalid', batch: true });
    } else {
      this.dispatch(line, json, false);
    }
  }

  private dispatch(line: InboundLine, item: unknown, batch: boolean): void {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      this.emit({ line, kind: 'invalid', batch });
      return;
    }
    const message = item as Message;
    if (typeof message.method === 'string') {
      const kind = 'id' in message ? 'request' : 'notification';
      const progress =
        message.method === 'notifications/progress' && isObject(message.params)
          ? { progressTokenSent: this.progressTokens.has(key(message.params.progressToken)) }
          : {};
      this.emit({
        line,
        message,
        batch,
        kind,
        ...progress,
        inFlight: () => [...this.pending.values()].map((p) => p.exchange),
      });
      if (kind === 'request') this.answerServerRequest(message);
      return;
    }
    if (!('result' in message) && !('error' in message)) {
      this.emit({ line, message, batch, kind: 'invalid' });
      return;
    }
    const found = this.match(this.pending, message.id, line.answers, (p) => p.exchange);
    const pending = found?.value;
    if (pending) {
      clearTimeout(pending.timer);
      this.pending.delete(key(pending.exchange.id));
      this.negotiated(pending.exchange, message);
      if (pending.armedAt !== undefined)
        recordCall(pending.exchange.method, pending.exchange.params, performance.now() - pending.armedAt);
      this.emit({ line, message, batch, kind: 'response', exchange: pending.exchange, looseId: found.looseId });
      pending.resolve({
        message,
        entry: line.entry,
        sent: pending.exchange.sent,
        looseId: found.looseId,
        ...(line.synthetic && { synthetic: true }),
      });
      return;
    }
    // The answer to a request that timed out: late, but it answers a request the client sent (judged like any other).
    const expired = this.match(this.expired, message.id, line.answers, (e) => e);
    if (expired) {
      const exchange = expired.value;
      this.expired.delete(key(exchange.id));
      const inGrace = exchange.graceUntil === undefined || performance.now() <= exchange.graceUntil;
      exchange.late = { afterMs: Math.round(line.entry.t - exchange.sent.t), entry: line.entry, inGrace };
      this.lateAnswers.push(exchange);
      this.transcript.add(
        'event',
        `late answer to ${exchange.method} (id ${JSON.stringify(exchange.id)}) after ${seconds(exchange.late.afterMs)}`,
      );
      for (const w of [...this.lateWaiters]) w();
    }
    const probe = expired ? undefined : this.probeAnswered(message.id);
    this.emit({
      line,
      message,
      batch,
      kind: 'response',
      exchange: expired?.value,
      late: expired !== undefined,
      looseId: expired?.looseId,
      ...(probe !== undefined && { probe }),
    });
  }

  /**
   * The request a response answers, in `requests` (pending or expired ones): for an HTTP error body, the request whose
   * POST it came back on, whatever its own id says (requirements §4.5; transport/http/error-body judges that id); else
   * by its id; failing that, a request whose id has the same value as another JSON type (resolved so the run goes on;
   * the id-echo check fails it).
   */
  private match<T>(
    requests: Map<string, T>,
    id: unknown,
    answers: RequestId | null | undefined,
    of: (value: T) => Exchange,
  ): { value: T; looseId: boolean } | undefined {
    const exact =
      (answers === undefined || answers === null ? undefined : requests.get(key(answers))) ?? requests.get(key(id));
    if (exact) return { value: exact, looseId: false };
    if (typeof id !== 'string' && typeof id !== 'number') return undefined;
    for (const value of requests.values()) {
      if (String(of(value).id) === String(id)) return { value, looseId: true };
    }
    return undefined;
  }

  /** Tells the transport the version an initialize result names (HTTP sends it as a header from then on). */
  private negotiated(exchange: Exchange, message: Message): void {
    const result = message.result as { protocolVersion?: unknown } | undefined;
    if (exchange.method === 'initialize' && typeof result?.protocolVersion === 'string')
      this.transport.setProtocolVersion?.(result.protocolVersion);
  }

  private emit(e: Omit<InboundEvent, 'session'>): void {
    // A reply the transport made up resolves its request, but is no frame of the server's to judge.
    if (e.line.synthetic) return;
    const event = e as InboundEvent;
    event.revision = this.revision;
    event.session = this.number;
    if (this.clientCapabilities) event.clientCapabilities = this.clientCapabilities;
    for (const l of this.listeners) l(event);
    for (const w of this.messageWaiters) w(event);
  }

  /** The client declares no capabilities (unless a check set a handler), so it answers ping and refuses everything else. */
  private answerServerRequest(message: Message): void {
    const answer = this.serverRequestHandler?.(message);
    if (answer) {
      this.transport.send(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...answer }));
      return;
    }
    const reply: Message =
      message.method === 'ping'
        ? { jsonrpc: '2.0', id: message.id, result: {} }
        : {
            jsonrpc: '2.0',
            id: message.id,
            error: { code: -32601, message: 'Method not found: the test client declares no capabilities' },
          };
    this.transport.send(JSON.stringify(reply));
  }
}
