// A small MCP server over a pair of streams (newline-delimited JSON-RPC, as over stdio) that speaks both eras: the
// initialize wire (2025-11-25, 2025-06-18) and the stateless wire of 2026-07-28 (server/discover; the protocol
// version and client capabilities in each request's _meta). It serves tools and resources; a tool's work may be
// long, report progress and be cancelled. `mcp-conformance mcp` is built on it.
import { createRequire } from 'node:module';
import type { Readable, Writable } from 'node:stream';
import type _Ajv2020 from 'ajv/dist/2020.js';
import { isObject } from '../json.js';

export const STATELESS_VERSION = '2026-07-28';
/** Revisions of the initialize wire, newest first. 2025-03-26 (batches) is not served: a client asking for it gets the newest. */
export const INITIALIZE_VERSIONS = ['2025-11-25', '2025-06-18'];
const SUPPORTED = [STATELESS_VERSION, ...INITIALIZE_VERSIONS];
const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
};
/** 2026-07-28 results that carry caching hints. */
const CACHEABLE = new Set([
  'server/discover',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);
/** Methods 2026-07-28 removed. */
const REMOVED = new Set(['ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);

const CODE = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  resourceNotFound: -32002,
  unsupportedVersion: -32022,
};

type Json = Record<string, unknown>;
type Id = string | number;

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** What a tool's work may use: the request's cancellation, and progress for a caller that asked for it. */
export interface ToolContext {
  signal: AbortSignal;
  progress(progress: number, total?: number, message?: string): void;
}

export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Json;
  annotations: { readOnlyHint: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint: boolean };
  /** A CallToolResult; a failure of the tool's work is `isError: true`, never a thrown error. */
  call(args: Json, ctx: ToolContext): Promise<Json>;
}

export interface McpResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  read(): Promise<string>;
}

export interface McpServerSpec {
  name: string;
  title: string;
  version: string;
  instructions: string;
  tools: McpTool[];
  /** The resources now (they may come and go between calls). */
  resources(): McpResource[];
}

const text = (t: string) => ({ type: 'text', text: t });

/** Why `params` breaks the little spec `{ key: 'string' | '?object' … }`; throws -32602. */
function checkParams(params: Json, spec: Record<string, string>, method: string): void {
  for (const [key, want] of Object.entries(spec)) {
    const type = want.replace(/^\?/, '');
    const value = params[key];
    if (value === undefined && want.startsWith('?')) continue;
    const ok = type === 'object' ? isObject(value) : typeof value === type;
    if (!ok)
      throw new RpcError(
        CODE.invalidParams,
        `Invalid params for ${method}: "${key}" must be a${type === 'object' ? 'n' : ''} ${type}`,
      );
  }
  if (params._meta !== undefined && !isObject(params._meta))
    throw new RpcError(CODE.invalidParams, `Invalid params for ${method}: "_meta" must be an object`);
}

/** One page is all there is: a cursor is one this server never issued. */
function noCursor(params: Json, method: string): void {
  checkParams(params, { cursor: '?string' }, method);
  if (params.cursor !== undefined)
    throw new RpcError(CODE.invalidParams, `Invalid params for ${method}: unknown cursor`);
}

function argumentChecker(): (schema: Json, value: unknown) => string | null {
  const { default: Ajv2020 } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof _Ajv2020;
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  const compiled = new Map<Json, ReturnType<typeof ajv.compile>>();
  return (schema, value) => {
    let validate = compiled.get(schema);
    if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
    if (validate(value)) return null;
    const e = validate.errors?.[0];
    return e ? `${e.instancePath || 'arguments'} ${e.message}` : 'invalid';
  };
}

/**
 * Serves `spec` on `input`/`output`; resolves when `input` ends and every answer due has been written. Requests are
 * answered as their work ends, several at once; a `notifications/cancelled` aborts the work and its answer is not sent.
 */
export function serveMcp(spec: McpServerSpec, { input, output }: { input: Readable; output: Writable }): Promise<void> {
  let negotiated: string | undefined;
  const working = new Map<string, AbortController>();
  /** Requests the client cancelled: their answers are not sent. */
  const cancelled = new Set<string>();
  const pending = new Set<Promise<void>>();
  const badArguments = argumentChecker();
  const send = (message: Json) => output.write(`${JSON.stringify(message)}\n`);
  const errorOf = (id: Id | null, code: number, message: string, data?: unknown) =>
    send({ jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } });

  const serverInfo = (revision: string) => ({
    name: spec.name,
    version: spec.version,
    ...(revision >= '2025-06-18' && { title: spec.title }),
  });
  const capabilities = { tools: {}, resources: {} };

  const methods: Record<string, (params: Json, revision: string, id: Id) => Json | Promise<Json>> = {
    initialize(params) {
      checkParams(params, { protocolVersion: 'string', capabilities: 'object', clientInfo: 'object' }, 'initialize');
      const asked = params.protocolVersion as string;
      negotiated = INITIALIZE_VERSIONS.includes(asked) ? asked : INITIALIZE_VERSIONS[0];
      return {
        protocolVersion: negotiated,
        capabilities,
        serverInfo: serverInfo(negotiated),
        instructions: spec.instructions,
      };
    },
    'server/discover'(params) {
      checkParams(params, {}, 'server/discover');
      return { supportedVersions: [STATELESS_VERSION], capabilities, instructions: spec.instructions };
    },
    ping(params) {
      checkParams(params, {}, 'ping');
      return {};
    },
    'tools/list'(params, revision) {
      noCursor(params, 'tools/list');
      return {
        tools: spec.tools.map(({ name, title, description, inputSchema, annotations }) => ({
          name,
          ...(revision >= '2025-06-18' && { title }),
          description,
          inputSchema,
          annotations,
        })),
      };
    },
    async 'tools/call'(params, _revision, id) {
      checkParams(params, { name: 'string', arguments: '?object' }, 'tools/call');
      const tool = spec.tools.find((t) => t.name === params.name);
      if (!tool) throw new RpcError(CODE.invalidParams, `Unknown tool: ${JSON.stringify(params.name)}`);
      const args = (params.arguments ?? {}) as Json;
      const problem = badArguments(tool.inputSchema, args);
      if (problem) return { content: [text(`Invalid arguments for tool ${tool.name}: ${problem}`)], isError: true };
      const token = isObject(params._meta) ? params._meta.progressToken : undefined;
      const controller = new AbortController();
      working.set(JSON.stringify(id), controller);
      try {
        return await tool.call(args, {
          signal: controller.signal,
          progress: (progress, total, message) => {
            if ((typeof token === 'string' || typeof token === 'number') && !controller.signal.aborted)
              send({
                jsonrpc: '2.0',
                method: 'notifications/progress',
                params: { progressToken: token, progress, total, message },
              });
          },
        });
      } finally {
        working.delete(JSON.stringify(id));
      }
    },
    'resources/list'(params, revision) {
      noCursor(params, 'resources/list');
      return {
        resources: spec.resources().map(({ uri, name, title, description, mimeType }) => ({
          uri,
          name,
          ...(revision >= '2025-06-18' && { title }),
          description,
          mimeType,
        })),
      };
    },
    'resources/templates/list'(params) {
      noCursor(params, 'resources/templates/list');
      return { resourceTemplates: [] };
    },
    async 'resources/read'(params, revision) {
      checkParams(params, { uri: 'string' }, 'resources/read');
      const resource = spec.resources().find((r) => r.uri === params.uri);
      if (!resource) {
        // 2026-07-28 made an unknown URI invalid params; before, resource-not-found.
        const code = revision === STATELESS_VERSION ? CODE.invalidParams : CODE.resourceNotFound;
        throw new RpcError(code, 'Resource not found', { uri: params.uri });
      }
      return { contents: [{ uri: resource.uri, mimeType: resource.mimeType, text: await resource.read() }] };
    },
  };

  /** The revision a request is served at, or the error answer that refuses it (2026-07-28's protocol fields). */
  function revisionOf(method: string, params: Json): string | RpcError {
    const meta = isObject(params._meta) ? params._meta : {};
    const stateless = method !== 'initialize' && (META.protocolVersion in meta || method === 'server/discover');
    if (!stateless) return negotiated ?? INITIALIZE_VERSIONS[0];
    const asked = meta[META.protocolVersion];
    if (typeof asked !== 'string' || !isObject(meta[META.clientCapabilities]))
      return new RpcError(
        CODE.invalidParams,
        `Invalid params: _meta must carry ${META.protocolVersion} and ${META.clientCapabilities}`,
      );
    if (asked !== STATELESS_VERSION)
      return new RpcError(CODE.unsupportedVersion, `Unsupported protocol version: ${asked}`, {
        requested: asked,
        supported: SUPPORTED,
      });
    if (REMOVED.has(method)) return new RpcError(CODE.methodNotFound, `Method not found: ${JSON.stringify(method)}`);
    return STATELESS_VERSION;
  }

  /** A 2026-07-28 result: its resultType, the caching hints where due, and the server's name in _meta. */
  const statelessResult = (method: string, result: Json): Json => ({
    resultType: 'complete',
    ...result,
    ...(CACHEABLE.has(method) && { ttlMs: 0, cacheScope: 'private' }),
    _meta: { ...(isObject(result._meta) ? result._meta : {}), [META.serverInfo]: serverInfo(STATELESS_VERSION) },
  });

  function onMessage(msg: unknown): void {
    if (!isObject(msg)) return void errorOf(null, CODE.invalidRequest, 'Invalid request: a message is a JSON object');
    const idOk = typeof msg.id === 'string' || Number.isInteger(msg.id);
    if (typeof msg.method !== 'string') {
      // A response to nothing this server asked: there is nothing to do with it.
      if (('result' in msg || 'error' in msg) && msg.jsonrpc === '2.0') return;
      return void errorOf(
        idOk ? (msg.id as Id) : null,
        CODE.invalidRequest,
        'Invalid request: method must be a string',
      );
    }
    if (!('id' in msg)) {
      if (msg.method === 'notifications/cancelled' && isObject(msg.params)) {
        const key = JSON.stringify(msg.params.requestId);
        if (working.has(key)) cancelled.add(key);
        working.get(key)?.abort();
      }
      return;
    }
    if (msg.jsonrpc !== '2.0' || !idOk || ('params' in msg && !isObject(msg.params) && !Array.isArray(msg.params)))
      return void errorOf(
        idOk ? (msg.id as Id) : null,
        CODE.invalidRequest,
        'Invalid request: not a JSON-RPC 2.0 request',
      );
    const id = msg.id as Id;
    const handler = Object.hasOwn(methods, msg.method) ? methods[msg.method] : undefined;
    if ('params' in msg && !isObject(msg.params))
      return void errorOf(id, CODE.invalidParams, 'Invalid params: expected an object');
    const params = (msg.params ?? {}) as Json;
    const revision = revisionOf(msg.method, params);
    if (revision instanceof RpcError) return void errorOf(id, revision.code, revision.message, revision.data);
    if (!handler) return void errorOf(id, CODE.methodNotFound, `Method not found: ${JSON.stringify(msg.method)}`);
    const method = msg.method;
    const done = (async () => {
      try {
        const result = await handler(params, revision, id);
        if (cancelled.delete(JSON.stringify(id))) return;
        send({ jsonrpc: '2.0', id, result: revision === STATELESS_VERSION ? statelessResult(method, result) : result });
      } catch (err) {
        if (cancelled.delete(JSON.stringify(id))) return;
        if (err instanceof RpcError) return void errorOf(id, err.code, err.message, err.data);
        process.stderr.write(`mcp-conformance mcp: internal error in ${method}: ${(err as Error)?.stack ?? err}\n`);
        errorOf(id, CODE.internal, 'Internal error');
      }
    })();
    pending.add(done);
    void done.finally(() => pending.delete(done));
  }

  return new Promise((resolve) => {
    let buffer = '';
    const onLine = (line: string) => {
      if (line.trim() === '') return;
      let msg: unknown;
      try {
        msg = JSON.parse(line);
      } catch {
        return void errorOf(null, CODE.parse, 'Parse error: invalid JSON');
      }
      if (Array.isArray(msg))
        return void errorOf(null, CODE.invalidRequest, 'Invalid request: batches are not supported');
      onMessage(msg);
    };
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        onLine(buffer.slice(0, nl).replace(/\r$/, ''));
        buffer = buffer.slice(nl + 1);
      }
    });
    input.on('end', () => {
      if (buffer !== '') onLine(buffer);
      // The client is gone: its work is not wanted any more.
      for (const controller of working.values()) controller.abort();
      void Promise.allSettled([...pending]).then(() => resolve());
    });
  });
}
