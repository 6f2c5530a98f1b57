// Scripted HTTP servers on 127.0.0.1 and client sessions to them, for the tests of the HTTP transport; both are
// closed after each test of the file that imports this module.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { Session } from '../src/session/session.js';
import { Transcript } from '../src/transcript.js';
import { StreamableHttpTransport } from '../src/transport/http.js';

/** What a scripted server saw of one request. */
export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

/** Closed after each test: servers and sessions a test made by hand go here too. */
export const servers: http.Server[] = [];
export const sessions: Session[] = [];

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

/** A scripted HTTP server on 127.0.0.1; `seen` lists every request it got. */
export async function serve(handler: Handler): Promise<{ url: URL; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
    handler(req, res, body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`), seen };
}

/** A Streamable HTTP session to `url` (2 s per request). */
export function session(
  url: URL,
  headers: Record<string, string> = {},
): { s: Session; t: StreamableHttpTransport; transcript: Transcript } {
  const transcript = new Transcript();
  const t = new StreamableHttpTransport({ url, headers }, transcript);
  const s = new Session(t, transcript, 2000);
  sessions.push(s);
  return { s, t, transcript };
}
