// The MCP side of the test server: answers a client as the scenario says, asks it what the scenario asks, and records
// every frame both ways. Knows no transport: the HTTP endpoint and the stdio bridge feed it messages and carry its
// frames.
import { Transcript } from '../../transcript.js';
import type { Scenario } from './scenario.js';

export const INITIALIZE_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26'];
export const STATELESS = '2026-07-28';
export const META = {
  version: 'io.modelcontextprotocol/protocolVersion',
  capabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
} as const;
export const SERVER_INFO = { name: 'mcp-conformance-test-server', version: '1.0.0' };

/** One frame: `in` from the client, `out` to it. `message` is undefined when the text is not JSON. */
export interface Frame {
  dir: 'in' | 'out';
  text: string;
  message?: unknown;
  /** The transcript entry's seq. */
  seq: number;
  /** The HTTP exchange that carried it (its seq), over HTTP. */
  exchange?: number;
}

/** A request the server sent the client, and what came back. */
export interface Asked {
  method: string;
  id: string;
  params: unknown;
  /** The client's response frame, when one came. */
  reply?: Record<string, unknown>;
  /** Set when no answer came within the timeout. */
  silent?: boolean;
}

/** Where a frame to the client goes: the open response stream (HTTP) or the client's stdin (stdio). */
export type Outlet = (message: Record<string, unknown>) => void;

const rec = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' ? (v as never) : {});
const rpcError = (id: unknown, code: number, message: string, data?: unknown) => ({
  jsonrpc: '2.0',
  id,
  error: { code, message, ...(data !== undefined && { data }) },
});

/** The result of a tool whose call ended without a result (a dropped stream resumed elsewhere). */
export const DEFERRED = Symbol('deferred');
/** The result of a call the client cancelled: no response is sent (Cancellation: the receiver does not answer it). */
export const CANCELLED = Symbol('cancelled');

export class Conversation {
  readonly frames: Frame[] = [];
  readonly transcript = new Transcript();
  readonly asked: Asked[] = [];
  /** What the client said of itself: initialize's params, or the first stateless request's `_meta`. */
  clientInfo?: Record<string, unknown>;
  capabilities?: Record<string, unknown>;
  /** The revision initialize asked for, and the one the server answered with. */
  requested?: string;
  negotiated?: string;
  /** Requests of the stateless wire refused with -32022 so far. */
  versionRefusals = 0;
  /** Input-required answers given: requestState → the input request keys. */
  readonly requestStates = new Map<string, string[]>();
  /** Every input_required answer, with the request it answered (the frame's own object) and its requestState. */
  readonly inputRequired: { request: Record<string, unknown>; state?: string }[] = [];
  /** The test server's origin, put in place of `{origin}` in the tools' schemas. */
  origin = '';
  private readonly pending = new Map<string, (reply: Record<string, unknown>) => void>();
  /** Calls of a `hang` tool, by request id, waiting for the client's notifications/cancelled. */
  private readonly hanging = new Map<string, () => void>();
  private nextId = 0;

  constructor(
    readonly scenario: Scenario,
    readonly revision: string,
    readonly timeoutMs: number,
  ) {}

  /** Records a frame; returns it. */
  record(dir: Frame['dir'], text: string, exchange?: number): Frame {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      message = undefined;
    }
    const entry = this.transcript.add(dir === 'in' ? 'recv' : 'send', text);
    const frame: Frame = { dir, text, message, seq: entry.seq, ...(exchange !== undefined && { exchange }) };
    this.frames.push(frame);
    return frame;
  }

  /** Sends a message through `out`, recorded. */
  send(out: Outlet, message: Record<string, unknown>, exchange?: number): void {
    this.record('out', JSON.stringify(message), exchange);
    out(message);
  }

  /**
   * Handles one message from the client: a response settles the request it answers; a request gets its response
   * (returned, for the caller to send); a notification gets nothing. `out` carries requests to the client meanwhile.
   */
  async handle(
    message: unknown,
    out: Outlet | undefined,
  ): Promise<Record<string, unknown> | typeof DEFERRED | typeof CANCELLED | undefined> {
    const m = rec(message);
    if (typeof m.method !== 'string') {
      if (typeof m.id === 'string') this.pending.get(m.id)?.(m);
      return undefined;
    }
    if (!('id' in m)) {
      if (m.method === 'notifications/cancelled') this.hanging.get(JSON.stringify(rec(m.params).requestId))?.();
      return undefined;
    }
    const params = rec(m.params);
    if (this.revision !== STATELESS && m.method === 'tools/call' && this.toolOf(params)?.does === 'hang')
      return new Promise((resolve) => this.hanging.set(JSON.stringify(m.id), () => resolve(CANCELLED)));
    try {
      const result = await this.answer(m.method, params, out);
      if (result === DEFERRED) return DEFERRED;
      if (result.resultType === 'input_required')
        this.inputRequired.push({
          request: m,
          ...(typeof result.requestState === 'string' && { state: result.requestState }),
        });
      // A result as a server of an earlier revision sends it: the client must take it as complete.
      const bare = m.method === 'tools/call' && this.toolOf(params)?.does === 'no-result-type';
      return {
        jsonrpc: '2.0',
        id: m.id,
        result: this.revision === STATELESS && !bare ? stateless(m.method, result) : result,
      };
    } catch (err) {
      if (err instanceof RpcError) return rpcError(m.id, err.code, err.message, err.data);
      throw err;
    }
  }

  /** Sends a request to the client and waits for its response (undefined when none came in time). */
  async ask(out: Outlet, method: string, params: unknown): Promise<Record<string, unknown> | undefined> {
    const id = `s${this.nextId++}`;
    const asked: Asked = { method, id, params };
    this.asked.push(asked);
    const reply = new Promise<Record<string, unknown> | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), this.timeoutMs);
      this.pending.set(id, (r) => {
        clearTimeout(timer);
        resolve(r);
      });
    });
    this.send(out, { jsonrpc: '2.0', id, method, ...(params !== undefined && { params }) });
    const got = await reply;
    this.pending.delete(id);
    if (got) asked.reply = got;
    else asked.silent = true;
    return got;
  }

  private async answer(
    method: string,
    params: Record<string, unknown>,
    out: Outlet | undefined,
  ): Promise<Record<string, unknown> | typeof DEFERRED> {
    if (this.revision === STATELESS && method !== 'initialize') this.statelessGate(params);
    switch (method) {
      case 'initialize':
        return this.initialize(params);
      case 'server/discover':
        // A server of the initialize era has no such method.
        if (this.revision !== STATELESS) throw new RpcError(-32601, `method not found: ${method}`);
        return {
          supportedVersions: [STATELESS],
          capabilities: { tools: {} },
          _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
        };
      case 'ping':
        return {};
      case 'tools/list':
        return {
          tools: JSON.parse(
            JSON.stringify(this.scenario.tools.map(({ does: _, ...tool }) => tool)).replaceAll('{origin}', this.origin),
          ),
        };
      case 'tools/call':
        return this.call(params, out);
      case 'resources/list':
        return { resources: [] };
      case 'prompts/list':
        return { prompts: [] };
      case 'resources/templates/list':
        return { resourceTemplates: [] };
      default:
        throw new RpcError(-32601, `method not found: ${method}`);
    }
  }

  private initialize(params: Record<string, unknown>): Record<string, unknown> {
    if (this.revision === STATELESS) throw new RpcError(-32601, 'this scenario speaks 2026-07-28: no initialize');
    this.clientInfo = rec(params.clientInfo);
    this.capabilities = rec(params.capabilities);
    this.requested = typeof params.protocolVersion === 'string' ? params.protocolVersion : undefined;
    // A version the server supports is echoed; any other gets the scenario's.
    this.negotiated =
      this.requested && INITIALIZE_REVISIONS.includes(this.requested) && this.requested <= this.revision
        ? this.requested
        : this.revision;
    return {
      protocolVersion: this.negotiated,
      capabilities: { tools: {} },
      serverInfo: SERVER_INFO,
    };
  }

  /** 2026-07-28: the request's `_meta` names a supported version (the scenario may refuse the first one anyway). */
  private statelessGate(params: Record<string, unknown>): void {
    const meta = rec(params._meta);
    // clientInfo is a SHOULD on 2026-07-28: a client without it still declares its capabilities.
    if (!this.clientInfo && meta[META.clientInfo] !== undefined) this.clientInfo = rec(meta[META.clientInfo]);
    if (!this.negotiated && meta[META.capabilities] !== undefined) {
      this.capabilities = rec(meta[META.capabilities]);
      this.negotiated = STATELESS;
    }
    const version = meta[META.version];
    // 2026-07-28 basic › _meta: a request without its protocol fields is invalid (-32602, HTTP 400).
    if (version === undefined || meta[META.capabilities] === undefined)
      throw new RpcError(-32602, `missing ${META.version} or ${META.capabilities} in _meta`);
    if (version !== STATELESS || (this.scenario.refuseFirstVersion && this.versionRefusals === 0)) {
      this.versionRefusals++;
      throw new RpcError(-32022, 'unsupported protocol version', {
        supported: [STATELESS],
        requested: version ?? null,
      });
    }
  }

  private toolOf(params: Record<string, unknown>) {
    return this.scenario.tools.find((t) => t.name === params.name);
  }

  private async call(
    params: Record<string, unknown>,
    out: Outlet | undefined,
  ): Promise<Record<string, unknown> | typeof DEFERRED> {
    const tool = this.scenario.tools.find((t) => t.name === params.name);
    if (!tool) throw new RpcError(-32602, `unknown tool: ${String(params.name)}`);
    const args = rec(params.arguments);
    const text = (t: string) => ({ content: [{ type: 'text', text: t }] });
    switch (tool.does) {
      case 'sum':
        return text(`The sum is ${Number(args.a) + Number(args.b)}`);
      case 'ask':
        if (out) await this.askAll(out);
        return text('asked');
      case 'elicit': {
        if (!out) return text('no stream to ask on');
        const reply = await this.ask(out, 'elicitation/create', ELICIT_WITH_DEFAULTS);
        return text(`elicitation: ${JSON.stringify(reply?.result ?? reply?.error ?? null)}`);
      }
      case 'input-required':
        return this.askForInput(params, true);
      case 'input-required-no-state':
        return this.askForInput(params, false);
      case 'sse-drop':
        return DEFERRED;
      case 'echo':
        return text(JSON.stringify(args.schema ?? null));
      default:
        return text('ok');
    }
  }

  /** Ping, then each capability the client declared (and one it did not, to see it refused). */
  private async askAll(out: Outlet): Promise<void> {
    const caps = this.capabilities ?? {};
    await this.ask(out, 'ping', undefined);
    if (caps.roots !== undefined) await this.ask(out, 'roots/list', undefined);
    if (caps.sampling !== undefined) await this.ask(out, 'sampling/createMessage', SAMPLING_REQUEST);
    if (caps.elicitation !== undefined && this.negotiated !== '2025-03-26')
      await this.ask(out, 'elicitation/create', ELICIT_WITH_DEFAULTS);
    // A capability the client left out: its answer must be an error.
    if (caps.roots === undefined) await this.ask(out, 'roots/list', undefined);
  }

  /**
   * 2026-07-28: an input request (with a requestState when `withState`) until the call brings inputResponses, as the
   * official scenario tells a retry from a first call; then the result.
   */
  private askForInput(params: Record<string, unknown>, withState: boolean): Record<string, unknown> {
    if (params.inputResponses !== undefined)
      return { resultType: 'complete', content: [{ type: 'text', text: 'input received' }] };
    const ask = { ask: { method: 'elicitation/create', params: ELICIT_WITH_DEFAULTS } };
    if (!withState) return { resultType: 'input_required', inputRequests: ask };
    const state = `state-${this.requestStates.size}-${'ü'}:${Date.now().toString(36)}`;
    this.requestStates.set(state, ['ask']);
    return { resultType: 'input_required', inputRequests: ask, requestState: state };
  }
}

/** Methods whose 2026-07-28 complete result carries ttlMs and cacheScope (the caching rules). */
const CACHED = [
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
];

/** A 2026-07-28 result as that revision requires it: resultType always, ttlMs and cacheScope on cached ones. */
function stateless(method: string, result: Record<string, unknown>): Record<string, unknown> {
  const out = { resultType: 'complete', ...result };
  if (out.resultType !== 'complete' || !CACHED.includes(method)) return out;
  return { ttlMs: 60000, cacheScope: 'public', ...out };
}

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const SAMPLING_REQUEST = {
  messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }],
  maxTokens: 20,
};

/** A form whose every field has a default: a client that accepts without the user filling it in sends the defaults. */
export const ELICIT_WITH_DEFAULTS = {
  mode: 'form',
  message: 'Confirm the defaults.',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', default: 'Ada' },
      count: { type: 'integer', default: 3 },
      ratio: { type: 'number', default: 0.5 },
      color: { type: 'string', enum: ['red', 'green'], default: 'green' },
      ok: { type: 'boolean', default: true },
    },
  },
};
