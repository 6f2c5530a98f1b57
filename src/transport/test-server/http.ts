// The HTTP side of the suite's test server for client runs: a loopback listener with the MCP endpoint, extra routes
// (metadata documents, an authorization server), a gate in front of the endpoint, and a log of every exchange.
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One HTTP exchange as the client made it: what checks read. Header names are lower-case. */
export interface HttpExchange {
  seq: number;
  /** Milliseconds since the server started listening. */
  t: number;
  method: string;
  /** The path and query. */
  url: string;
  /** Set when the response head was sent; undefined while it has not been (or the client left first). */
  status?: number;
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string>;
  /** The request body (cut at MAX_BODY bytes). */
  body: string;
}

/** What a gate or a route answers with. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export type RouteHandler = (req: IncomingMessage, body: string, res: ServerResponse) => void | Promise<void>;
/** Runs before MCP handling: an Answer ends the exchange there (e.g. 401 with WWW-Authenticate). */
export type Gate = (req: IncomingMessage, body: string) => Answer | undefined | Promise<Answer | undefined>;

/** Request bodies beyond this are refused (413): a flooding client does not grow the suite's memory. */
export const MAX_BODY = 4 * 1024 * 1024;
/** Exchanges kept; later ones are counted. */
const MAX_EXCHANGES = 2000;
export const MCP_PATH = '/mcp';

const flat = (headers: IncomingMessage['headers'] | ReturnType<ServerResponse['getHeaders']>) =>
  Object.fromEntries(
    Object.entries(headers)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : String(v)]),
  );

export class TestServer {
  readonly exchanges: HttpExchange[] = [];
  /** Exchanges not kept (beyond MAX_EXCHANGES). */
  dropped = 0;
  private readonly routes = new Map<string, RouteHandler>();
  private readonly gates: Gate[] = [];
  private readonly server: Server;
  private readonly open = new Set<ServerResponse>();
  private readonly byRequest = new WeakMap<IncomingMessage, HttpExchange>();
  private t0 = performance.now();
  url = '';

  constructor(private readonly mcp: RouteHandler) {
    this.server = createServer((req, res) => void this.serve(req, res));
  }

  /** Mounts a route on the server's origin (`GET`, `/.well-known/oauth-protected-resource`). */
  route(method: string, path: string, handler: RouteHandler): this {
    this.routes.set(`${method.toUpperCase()} ${path}`, handler);
    return this;
  }

  /** Adds a gate in front of the MCP endpoint. */
  gate(fn: Gate): this {
    this.gates.push(fn);
    return this;
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', resolve);
    });
    this.t0 = performance.now();
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${MCP_PATH}`;
    return this.url;
  }

  get origin(): string {
    return new URL(this.url).origin;
  }

  /** Ends every open stream and stops listening. */
  async close(): Promise<void> {
    for (const res of this.open) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const exchange = this.record(req);
    this.open.add(res);
    res.on('close', () => {
      this.open.delete(res);
      if (exchange && res.headersSent) {
        exchange.status = res.statusCode;
        exchange.responseHeaders = flat(res.getHeaders());
      }
    });
    // The status is known when the head goes out (an SSE stream stays open long after).
    const writeHead = res.writeHead.bind(res);
    res.writeHead = ((...args: Parameters<ServerResponse['writeHead']>) => {
      const out = writeHead(...args);
      if (exchange) {
        exchange.status = res.statusCode;
        exchange.responseHeaders = flat(res.getHeaders());
      }
      return out;
    }) as ServerResponse['writeHead'];
    try {
      const body = await readBody(req);
      if (body === undefined) return answer(res, { status: 413, body: 'request body too large' });
      if (exchange) exchange.body = body;
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const route = this.routes.get(`${req.method} ${path}`);
      if (route) return await route(req, body, res);
      if (path !== MCP_PATH) return answer(res, { status: 404, body: 'not found' });
      for (const gate of this.gates) {
        const refused = await gate(req, body);
        if (refused) return answer(res, refused);
      }
      await this.mcp(req, body, res);
    } catch (err) {
      if (!res.headersSent) answer(res, { status: 500, body: (err as Error).message });
      else res.destroy();
    }
  }

  /** The exchange a request belongs to (undefined when it was not kept). */
  exchangeOf(req: IncomingMessage): HttpExchange | undefined {
    return this.byRequest.get(req);
  }

  private record(req: IncomingMessage): HttpExchange | undefined {
    if (this.exchanges.length >= MAX_EXCHANGES) {
      this.dropped++;
      return undefined;
    }
    const exchange: HttpExchange = {
      seq: this.exchanges.length,
      t: Math.round(performance.now() - this.t0),
      method: req.method ?? '',
      url: req.url ?? '',
      requestHeaders: flat(req.headers),
      responseHeaders: {},
      body: '',
    };
    this.exchanges.push(exchange);
    this.byRequest.set(req, exchange);
    return exchange;
  }
}

export function answer(res: ServerResponse, a: Answer): void {
  if (res.headersSent) return void res.end();
  res.writeHead(a.status, { 'content-type': 'text/plain', ...a.headers });
  res.end(a.body ?? '');
}

/** The body as text, or undefined when it is larger than MAX_BODY. */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
