import dns, { type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';

/** What the transports send: node:http, so every header is exactly what the suite chose (no fetch defaults). */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: URL;
  headers: Record<string, string>;
  body?: string;
  agent: http.Agent;
  /** Aborts the request (and its response) when it fires. */
  signal?: AbortSignal;
}

const IDLE_MS = 4000;
/** Kept-alive connections a request may find closed by the server before it gets a live one. */
const STALE_RETRIES = 3;

/**
 * A keep-alive agent for one session's connections; destroying it ends them all, open streams included. An idle
 * connection is dropped after 4 s, before a Node server's own 5 s limit closes it under a request about to be sent.
 */
export function sessionAgent(url: URL): http.Agent {
  const options = { keepAlive: true, timeout: IDLE_MS };
  return url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
}

/** Each host name resolved once per run: every new connection of every session would otherwise look it up again. */
const resolved = new Map<string, Promise<LookupAddress[]>>();

/** net's lookup hook, from the run's cache (a failed lookup is not kept: the next connection asks again). */
function lookup(
  hostname: string,
  options: dns.LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
  let addresses = resolved.get(hostname);
  if (!addresses) {
    addresses = dns.promises.lookup(hostname, { all: true });
    resolved.set(hostname, addresses);
    addresses.catch(() => resolved.delete(hostname));
  }
  addresses.then(
    (all) => {
      const fit = options.family ? all.filter((a) => a.family === options.family) : all;
      if (fit.length === 0)
        callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }), '');
      else if (options.all) callback(null, fit);
      else callback(null, fit[0].address, fit[0].family);
    },
    (err: NodeJS.ErrnoException) => callback(err, ''),
  );
}

/** Sends a request; resolves with the response once its head arrived, rejects when there is no response at all. */
export async function send(req: HttpRequest): Promise<http.IncomingMessage> {
  for (let retries = STALE_RETRIES; ; retries--) {
    try {
      return await sendOnce(req);
    } catch (err) {
      // A kept-alive connection the server closed while idle resets the next request before the server read it:
      // then, and only then, sending again is safe (Node's advice for keep-alive agents).
      if (!(err as { stale?: boolean }).stale || retries === 0) throw err;
    }
  }
}

function sendOnce(req: HttpRequest): Promise<http.IncomingMessage> {
  const mod = req.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const r = mod.request(
      req.url,
      { method: req.method, headers: req.headers, agent: req.agent, signal: req.signal, lookup },
      resolve,
    );
    // Small messages go out at once rather than waiting for the last packet's ACK (Nagle).
    r.on('socket', (socket) => socket.setNoDelay(true));
    r.on('error', (err: NodeJS.ErrnoException) =>
      reject(Object.assign(err, { stale: r.reusedSocket && err.code === 'ECONNRESET' })),
    );
    r.end(req.body);
  });
}

/** A response body, read whole up to `maxBytes` (the rest is counted, not kept). */
export async function readBody(
  res: http.IncomingMessage,
  maxBytes: number,
): Promise<{ text: string; bytes: number; truncated: boolean }> {
  const parts: Buffer[] = [];
  let kept = 0;
  let bytes = 0;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (kept < maxBytes) {
        const piece = chunk.subarray(0, maxBytes - kept);
        parts.push(piece);
        kept += piece.length;
      }
    }
  } catch {
    // The connection broke mid-body: judge what arrived.
  }
  return { text: Buffer.concat(parts).toString('utf8'), bytes, truncated: bytes > kept };
}

/** The media type of a response, lower-case and without parameters ('' when absent). */
export function mediaType(res: http.IncomingMessage): string {
  return (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Why a request got no response: the errno code when there is one (ECONNREFUSED …). */
export function failure(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code ?? e.message;
}

/** Whether a URL names this machine (the Origin check applies only to local servers, requirements §5.10). */
export function isLocal(url: URL): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname) || url.hostname.endsWith('.localhost');
}
