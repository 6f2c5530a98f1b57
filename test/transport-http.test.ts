import type http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { expectCode } from '../src/checks/kit/check.js';
import { RequestTimeout, Session, SessionClosed, type InboundEvent } from '../src/session/session.js';
import { Transcript } from '../src/transcript.js';
import { LaunchError } from '../src/target/launch-error.js';
import { TargetError, resolveTarget } from '../src/target/resolve.js';
import { connect } from '../src/transport/connect.js';
import { REVISIONS } from '../src/schema/revisions.js';
import { TRANSPORT_ERROR } from '../src/transport/http-base.js';
import { isAlive } from '../src/transport/process-tree.js';
import { describeHeaders, redact, redactUrl, secretsOf } from '../src/transport/secrets.js';
import { type SseEvent, SseParser } from '../src/transport/sse-parser.js';
import { type Seen, serve, servers, session, sessions } from './scripted-http.js';

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
const rpc = (body: string) => JSON.parse(body) as { id?: string | number; method?: string };
const INIT = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } };

describe('SSE parser', () => {
  const STREAM =
    '\uFEFF: a comment\r\n' +
    'event: note\rdata: first line\ndata:second line\r\nid: 7\nretry: 1500\n\n' +
    'data: {"a":\ndata: 1}\nid: bad\0id\nretry: soon\nfoo: ignored\n\n' +
    'id: prime\ndata:\n\n' +
    'id: only-an-id\n\n' +
    '\n\n' +
    'data: never ended';
  const EXPECTED: SseEvent[] = [
    { type: 'note', data: 'first line\nsecond line', hasData: true, id: '7', retry: 1500 },
    { type: 'message', data: '{"a":\n1}', hasData: true },
    { type: 'message', data: '', hasData: true, id: 'prime' },
    { type: 'message', data: '', hasData: false, id: 'only-an-id' },
  ];

  it('reads comments, CRLF / CR / LF, a BOM, multi-line data, ids and retry; drops an unfinished event', () => {
    const events: SseEvent[] = [];
    const parser = new SseParser((e) => events.push(e));
    parser.push(Buffer.from(STREAM));
    parser.end();
    expect(events).toEqual(EXPECTED);
  });

  it('gives the same events whatever the chunking, even a CRLF or a multibyte character split in two', () => {
    const bytes = Buffer.from(STREAM.replace('first line', 'first liné'));
    const expected = EXPECTED.map((e) => (e.type === 'note' ? { ...e, data: 'first liné\nsecond line' } : e));
    for (const size of [1, 2, 3, 7]) {
      const events: SseEvent[] = [];
      const parser = new SseParser((e) => events.push(e));
      for (let i = 0; i < bytes.length; i += size) parser.push(bytes.subarray(i, i + size));
      parser.end();
      expect(events, `chunks of ${size}`).toEqual(expected);
    }
  });

  it('refuses a line longer than its limit', () => {
    const parser = new SseParser(() => {}, 10);
    expect(() => parser.push(Buffer.from('data: 0123456789abc'))).toThrow(RangeError);
  });
});

describe('secrets', () => {
  it('hides header values, and the credential after the scheme, wherever they appear', () => {
    const secrets = secretsOf({ headers: { Authorization: 'Bearer tok-123456', 'X-Debug': '1' }, env: {} });
    expect(secrets).toEqual(['Bearer tok-123456', 'tok-123456']);
    const report = { a: 'sent Bearer tok-123456', b: ['echo tok-123456'], c: { n: 1, d: 'x-debug: 1' } };
    expect(redact(report, secrets)).toEqual({ a: 'sent ***', b: ['echo ***'], c: { n: 1, d: 'x-debug: 1' } });
    expect(describeHeaders({ Authorization: 'Bearer tok-123456' })).toBe('Authorization: ***');
    expect(redactUrl('http://user:pw@127.0.0.1:1/mcp')).toBe('http://user:***@127.0.0.1:1/mcp');
  });
});

describe('Streamable HTTP transport', () => {
  it('POSTs with both Accept types, keeps the session id, sends the negotiated version, opens GET, DELETEs at close', async () => {
    const { url, seen } = await serve((req, res, body) => {
      if (req.method === 'GET') return res.writeHead(405).end();
      if (req.method === 'DELETE') return res.writeHead(200).end();
      const m = rpc(body);
      if (m.method === 'initialize')
        return json(
          res,
          200,
          { jsonrpc: '2.0', id: m.id, result: { ...INIT, serverInfo: { name: 's', version: '1' } } },
          { 'Mcp-Session-Id': 'sid-1' },
        );
      if (m.id === undefined) return res.writeHead(202).end();
      // An SSE answer: a notification first, then the response spread over two data lines.
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end(
        `id: e1\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}\n\nid: e2\ndata: {"jsonrpc":"2.0",\ndata: "id":${m.id},"result":{}}\n\n`,
      );
    });
    const { s, t, transcript } = session(url, { Authorization: 'Bearer tok-123456' });
    const inbound: InboundEvent[] = [];
    s.onInbound((e) => inbound.push(e));
    await s.request('initialize', INIT);
    s.notify('notifications/initialized');
    const reply = await s.request('ping');
    expect(reply.message).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    expect(inbound.map((e) => e.kind)).toEqual(['response', 'notification', 'response']);
    expect(t.eventIds).toEqual(['e1', 'e2']);
    await s.close();

    const posts = seen.filter((r) => r.method === 'POST');
    expect(posts.map((r) => rpc(r.body).method ?? 'response')).toEqual([
      'initialize',
      'notifications/initialized',
      'ping',
    ]);
    for (const r of seen) expect(r.headers.authorization).toBe('Bearer tok-123456');
    for (const r of posts)
      expect([r.headers.accept, r.headers['content-type']]).toEqual([
        'application/json, text/event-stream',
        'application/json',
      ]);
    expect(posts.map((r) => [r.headers['mcp-session-id'], r.headers['mcp-protocol-version']])).toEqual([
      [undefined, undefined],
      ['sid-1', '2025-06-18'],
      ['sid-1', '2025-06-18'],
    ]);
    const get = seen.find((r) => r.method === 'GET')!;
    expect([get.headers.accept, get.headers['mcp-session-id']]).toEqual(['text/event-stream', 'sid-1']);
    expect(seen.at(-1)).toMatchObject({ method: 'DELETE', headers: { 'mcp-session-id': 'sid-1' } });
    await expect(t.listening).resolves.toMatchObject({ status: 405 });

    const text = transcript.entries.map((e) => e.text).join('\n');
    expect(text).toContain('headers Authorization: ***');
    expect(text).not.toContain('tok-123456');
    expect(text).toContain('POST → 200 OK; application/json; mcp-session-id: sid-1');
    expect(text).toContain('SSE event (id "e2")');
    expect(text).toContain('DELETE (end of session) → 200 OK');
  });

  it('an HTTP error answers the request: with its JSON-RPC body, or else with a made-up error no frame check sees', async () => {
    const { url } = await serve((_req, res, body) => {
      const m = rpc(body);
      if (m.method === 'with-body')
        return json(res, 400, { jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: no' }, id: null });
      if (m.method === 'no-body') return res.writeHead(500).end();
      if (m.method === 'accepted') return res.writeHead(202).end();
      // A refused notification: its error body answers nothing.
      return json(res, 400, { jsonrpc: '2.0', error: { code: -32000, message: 'refused' } });
    });
    const { s } = session(url);
    const inbound: InboundEvent[] = [];
    s.onInbound((e) => inbound.push(e));
    s.notify('notifications/refused');
    const withBody = await s.request('with-body');
    expect(withBody.message.error).toEqual({ code: -32000, message: 'Bad Request: no' });
    const noBody = await s.request('no-body');
    expect(noBody.message.error).toEqual({ code: TRANSPORT_ERROR, message: 'HTTP 500 without a JSON-RPC response' });
    const accepted = await s.request('accepted');
    expect((accepted.message.error as { message: string }).message).toBe(
      'HTTP 202 without a content type ended without the response to this request',
    );
    // Only the server's own frame is judged, and it answers its request (id null is lenient, requirements §4.5).
    expect(inbound).toHaveLength(1);
    expect(inbound[0]).toMatchObject({ kind: 'response', exchange: { method: 'with-body' }, line: { answers: 1 } });
  });

  it('a check names what came when the error was made up: the status, not a code the server never sent', async () => {
    const { url } = await serve((_req, res) =>
      res.writeHead(400, { 'content-type': 'text/plain' }).end('JSON RPC not handled'),
    );
    const { s } = session(url);
    const reply = await s.request('conformance/does-not-exist');
    expect(reply.synthetic).toBe(true);
    const outcome = expectCode(reply, -32601, 'an unknown method', 'fail');
    expect(outcome).toMatchObject({
      status: 'fail',
      message: 'an unknown method → HTTP 400 without a JSON-RPC response, expected -32601',
    });
  });

  it('sends a request only after the notification before it was accepted', async () => {
    const { url, seen } = await serve((_req, res, body) => {
      const m = rpc(body);
      if (m.id === undefined) return setTimeout(() => res.writeHead(202).end(), 150);
      json(res, 200, { jsonrpc: '2.0', id: m.id, result: {} });
    });
    const { s } = session(url);
    s.notify('notifications/first');
    await s.request('ping');
    expect(seen.map((r) => rpc(r.body).method)).toEqual(['notifications/first', 'ping']);
  });

  it('answers a request that got no HTTP response at all, at once', async () => {
    const { url } = await serve(() => {});
    for (const s of servers.splice(0)) s.close();
    const { s } = session(url);
    const reply = await s.request('ping');
    expect(reply.message.error).toEqual({ code: TRANSPORT_ERROR, message: 'no HTTP response: ECONNREFUSED' });
  });

  it('a request the server never answers times out, as on stdio', async () => {
    const { url } = await serve(() => {});
    const { s } = session(url);
    await expect(s.request('ping', undefined, { timeoutMs: 200 })).rejects.toBeInstanceOf(RequestTimeout);
  });

  it('after close, requests fail at once and the exit says the session was closed', async () => {
    const { url } = await serve((_req, res) => res.writeHead(405).end());
    const { s, t } = session(url);
    await expect(t.close()).resolves.toEqual({ code: null, signal: null, how: 'closed' });
    await expect(s.request('ping')).rejects.toBeInstanceOf(SessionClosed);
  });
});

/** A legacy HTTP+SSE server: GET /sse announces /messages; answers go on the stream. `endAfter` ends the stream after that many answers. */
async function legacyServer(endAfter = Infinity): Promise<{ url: URL; seen: Seen[] }> {
  let stream: http.ServerResponse | undefined;
  let answered = 0;
  const server = await serve((req, res, body) => {
    if (req.method === 'GET' && req.url === '/sse') {
      stream = res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write('event: endpoint\ndata: /messages?session=abc\n\n');
      return;
    }
    if (req.method !== 'POST' || !req.url!.startsWith('/messages')) return res.writeHead(404).end();
    res.writeHead(202).end('Accepted');
    const m = rpc(body);
    if (m.id === undefined) return;
    stream!.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {} })}\n\n`);
    if (++answered >= endAfter) stream!.end();
  });
  return { ...server, url: new URL('/sse', server.url) };
}

describe('legacy HTTP+SSE transport and transport detection', () => {
  it('detects a legacy server, POSTs to its endpoint and reads the answers from the stream', async () => {
    const { url, seen } = await legacyServer();
    const connection = connect(
      { description: String(url), command: '', args: [], cwd: '.', env: {}, url: String(url), transport: 'http' },
      { timeoutMs: 2000, probeVersion: REVISIONS[0] },
    );
    const transcript = new Transcript();
    const t = await connection.open(transcript);
    expect(t.kind).toBe('sse');
    const s = new Session(t, transcript, 2000);
    sessions.push(s);
    expect((await s.request('ping')).message).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /sse',
      'GET /sse',
      'GET /sse',
      'POST /messages?session=abc',
    ]);
    expect(transcript.entries.map((e) => e.text)).toContain(
      'transport detection: POST initialize → 404, GET → 200, first event endpoint: legacy HTTP+SSE',
    );
  });

  it('ends the session when the server ends the stream: pending requests fail at once', async () => {
    const { url } = await legacyServer(1);
    const connection = connect(
      { description: String(url), command: '', args: [], cwd: '.', env: {}, url: String(url), transport: 'sse' },
      { timeoutMs: 2000, probeVersion: REVISIONS[0] },
    );
    const transcript = new Transcript();
    const s = new Session(await connection.open(transcript), transcript, 5000);
    sessions.push(s);
    await s.request('ping');
    await expect(s.request('ping')).rejects.toBeInstanceOf(SessionClosed);
    expect(s.transport.exited?.how).toBe('crashed');
  });

  it('detects Streamable HTTP, and deletes the session its probe opened', async () => {
    const { url, seen } = await serve((req, res) => {
      if (req.method === 'DELETE') return res.writeHead(200).end();
      json(res, 200, { jsonrpc: '2.0', id: 'mcp-conformance-detect', result: {} }, { 'Mcp-Session-Id': 'probe' });
    });
    const connection = connect(
      { description: String(url), command: '', args: [], cwd: '.', env: {}, url: String(url), transport: 'http' },
      { timeoutMs: 2000, probeVersion: REVISIONS[0] },
    );
    const t = await connection.open(new Transcript());
    expect(t.kind).toBe('http');
    await t.close();
    expect(seen.map((r) => `${r.method} ${r.headers['mcp-session-id'] ?? ''}`)).toEqual(['POST ', 'DELETE probe']);
  });

  it('takes a 400 with a JSON-RPC error for Streamable HTTP without the GET, whose stream it may hold open', async () => {
    // A server of the stateless wire refuses initialize so, and this one holds a GET open without an endpoint event.
    const { url, seen } = await serve((req, res) => {
      if (req.method === 'GET') return void res.writeHead(200, { 'Content-Type': 'text/event-stream' }).flushHeaders();
      json(res, 400, { jsonrpc: '2.0', id: 'mcp-conformance-detect', error: { code: -32602, message: 'no _meta' } });
    });
    const connection = connect(
      { description: String(url), command: '', args: [], cwd: '.', env: {}, url: String(url), transport: 'http' },
      { timeoutMs: 2000, probeVersion: REVISIONS[0] },
    );
    const transcript = new Transcript();
    const t = await connection.open(transcript);
    expect(t.kind).toBe('http');
    await t.close();
    expect(seen.map((r) => r.method)).toEqual(['POST']);
    expect(transcript.entries.map((e) => e.text)).toContain(
      'transport detection: POST initialize → 400 with a JSON-RPC error: Streamable HTTP',
    );
  });

  it('says in one line when nothing answers at a URL', async () => {
    const { url } = await serve(() => {});
    for (const s of servers.splice(0)) s.close();
    const connection = connect(
      { description: String(url), command: '', args: [], cwd: '.', env: {}, url: String(url), transport: 'http' },
      { timeoutMs: 2000, probeVersion: REVISIONS[0] },
    );
    const err = await connection.open(new Transcript()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LaunchError);
    expect((err as LaunchError).message).toBe(`nothing answered at ${url}: ECONNREFUSED`);
  });
});

describe('starting an HTTP server', () => {
  const plan = (code: string) => ({
    description: 'x',
    command: process.execPath,
    args: ['-e', code],
    cwd: '.',
    env: {},
    url: 'http://127.0.0.1:9/mcp',
    transport: 'http' as const,
  });
  const pidOf = (t: Transcript) => Number(/\(pid (\d+)\)/.exec(t.entries[0]!.text)![1]);

  it('a server that exits before answering: one line naming the command, then its output', async () => {
    const connection = connect(plan(`console.error('boom: no config file'); process.exit(3)`), {
      timeoutMs: 1000,
      probeVersion: REVISIONS[0],
    });
    const err = (await connection.open(new Transcript()).catch((e: unknown) => e)) as LaunchError;
    expect(err).toBeInstanceOf(LaunchError);
    const [first, ...rest] = err.message.split('\n');
    expect(first).toMatch(/-e .* exited \(code 3, signal none\) before answering at http:\/\/127\.0\.0\.1:9\/mcp$/);
    expect(rest).toEqual(['last server output:', '  boom: no config file']);
  });

  it('a server that never answers: a bounded wait, then it is stopped', async () => {
    const transcript = new Transcript();
    const connection = connect(plan('setInterval(() => {}, 1000)'), {
      timeoutMs: 1000,
      readyMs: 600,
      probeVersion: REVISIONS[0],
    });
    await expect(connection.open(transcript)).rejects.toThrow(
      /did not answer at http:\/\/127\.0\.0\.1:9\/mcp within 1 s \(the server wrote nothing\)/,
    );
    expect(isAlive(pidOf(transcript))).toBe(false);
  });

  it('a URL that drops every connection is polled further and further apart, up to the same overall limit', async () => {
    const polls: number[] = [];
    const dropper = net.createServer((socket) => {
      polls.push(performance.now());
      socket.destroy();
    });
    await new Promise<void>((resolve) => dropper.listen(0, '127.0.0.1', resolve));
    const { port } = dropper.address() as net.AddressInfo;
    try {
      const started = performance.now();
      const connection = connect(
        { ...plan('setInterval(() => {}, 1000)'), url: `http://127.0.0.1:${port}/mcp` },
        { timeoutMs: 1000, readyMs: 2000, probeVersion: REVISIONS[0] },
      );
      await expect(connection.open(new Transcript())).rejects.toThrow(/did not answer at .* within 2 s/);
      expect(performance.now() - started).toBeGreaterThanOrEqual(2000);
      // Every 20 ms, 2 s would be about 100 polls; doubling from 20 ms up to 250 ms makes them about 12.
      expect(polls.length).toBeGreaterThan(3);
      expect(polls.length).toBeLessThanOrEqual(15);
      const gaps = polls.slice(1).map((t, i) => t - polls[i]!);
      expect(Math.max(...gaps)).toBeGreaterThanOrEqual(200);
    } finally {
      dropper.close();
    }
  });
});

describe('resolving HTTP targets', () => {
  it('a URL is a running server; --http-url with --port auto fills {port} and passes PORT', async () => {
    await expect(resolveTarget({ target: 'http://127.0.0.1:3001/mcp', headers: { A: 'b' } })).resolves.toMatchObject({
      command: '',
      url: 'http://127.0.0.1:3001/mcp',
      transport: 'http',
      headers: { A: 'b' },
    });
    const p = await resolveTarget({
      command: ['node', 'server.js', '--port={port}'],
      httpUrl: 'http://127.0.0.1:{port}/mcp',
      port: 'auto',
      transport: 'sse',
    });
    const port = Number(p.env.PORT);
    expect(port).toBeGreaterThan(0);
    expect(p).toMatchObject({
      command: 'node',
      args: ['server.js', `--port=${port}`],
      url: `http://127.0.0.1:${port}/mcp`,
      transport: 'sse',
    });
  });

  it('refuses combinations that cannot work, in one line', async () => {
    const bad: [Parameters<typeof resolveTarget>[0], RegExp][] = [
      [{ command: ['node', 's.js'], httpUrl: 'http://127.0.0.1:{port}/mcp' }, /give --port N or --port auto/],
      [{ target: 'http://127.0.0.1:1/mcp', port: 'auto' }, /already running/],
      [{ command: ['node', 's.js'], headers: { A: 'b' } }, /--header applies to HTTP servers only/],
      [{ command: ['node', 's.js'], transport: 'sse' }, /--transport sse needs a URL/],
      [{ target: 'http://127.0.0.1:1/mcp', transport: 'stdio' }, /--transport stdio needs a file/],
    ];
    for (const [input, message] of bad) await expect(resolveTarget(input)).rejects.toThrow(message);
    await expect(resolveTarget(bad[0]![0])).rejects.toBeInstanceOf(TargetError);
  });
});
