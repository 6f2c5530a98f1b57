// The stateless wire (2026-07-28) over Streamable HTTP: the headers the client mirrors from each request, the
// reference server in both of its stateless modes, each fault of the stateless HTTP checks, and --revision auto.
import type http from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TASK_EXTENSION_CHECKS } from '../../src/checks/tasks-ext/checks.js';
import { STATELESS_HEADER_CHECKS } from '../../src/checks/stateless/headers.js';
import { STATELESS_HTTP_CHECKS } from '../../src/checks/stateless/http.js';
import { paramHeadersOf, statelessMeta } from '../../src/discovery/discover.js';
import { runConformance } from '../../src/index.js';
import { verdict } from '../../src/report/summary.js';
import { conformEach } from '../../src/run/conform.js';
import { resolveOptions } from '../../src/config/options.js';
import type { Report } from '../../src/schema/generated/report.js';
import { STATELESS_REVISION } from '../../src/schema/validators.js';
import { STATELESS_HTTP_FAULT_ROWS } from '../fault-rows.js';
import { ROOT, runCli } from '../helpers.js';
import { serve, session as scriptedSession } from '../scripted-http.js';

const HTTP_REFERENCE = join(ROOT, 'examples/reference-server/http.mjs');
const STARTED = ['--http-url', 'http://127.0.0.1:{port}/mcp', '--port', 'auto'];
const SEED = ['--seed', '7', '--runs', '10'];
const FAULTY_HTTP = join(ROOT, 'test/fixtures/servers/faulty-http-server.mjs');

const notPassing = (r: Report | undefined) =>
  (r?.checks ?? [])
    .filter((c) => c.status !== 'pass' && c.status !== 'skip')
    .map((c) => `${c.id}: ${c.status} ${c.message}`);

describe('a stateless session over Streamable HTTP', () => {
  /** A server that answers every request with an empty result and a session id. */
  const recording = () =>
    serve((_req, res, body) => {
      let id: unknown = null;
      try {
        id = (JSON.parse(body) as { id?: unknown }).id ?? null;
      } catch {
        // raw input: answered with id null
      }
      res
        .writeHead(200, { 'Content-Type': 'application/json', 'Mcp-Session-Id': 'minted' })
        .end(JSON.stringify({ jsonrpc: '2.0', id, result: {} }));
    });

  it('mirrors the version, method and target of each request in headers, and keeps no session', async () => {
    const { url, seen } = await recording();
    const { s: session, t: transport } = scriptedSession(url);
    session.requestMeta = statelessMeta(STATELESS_REVISION);
    await session.request('server/discover', {});
    await session.request('tools/call', { name: 'echo', arguments: {} });
    await session.request('resources/read', { uri: 'ref://docs/wörter' });
    await session.request('prompts/get', { name: '=?base64?looks-encoded?=' });
    await session.request('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': '1900-01-01' } });
    session.sendRaw('{"jsonrpc":"2.0","id":"raw","method":');
    await transport.posts.at(-1)!.outcome;
    const pick = (h: http.IncomingHttpHeaders) => [
      h['mcp-protocol-version'],
      h['mcp-method'],
      h['mcp-name'],
      h['mcp-session-id'],
    ];
    const b64 = (text: string) => `=?base64?${Buffer.from(text).toString('base64')}?=`;
    expect(seen.map((s) => s.method)).toEqual(Array(6).fill('POST'));
    expect(seen.map((s) => pick(s.headers))).toEqual([
      [STATELESS_REVISION, 'server/discover', undefined, undefined],
      [STATELESS_REVISION, 'tools/call', 'echo', undefined],
      [STATELESS_REVISION, 'resources/read', b64('ref://docs/wörter'), undefined],
      [STATELESS_REVISION, 'prompts/get', b64('=?base64?looks-encoded?='), undefined],
      ['1900-01-01', 'tools/list', undefined, undefined],
      [STATELESS_REVISION, undefined, undefined, undefined],
    ]);
    await session.close();
    expect(seen).toHaveLength(6); // no DELETE: there is no session to end
  });

  it("names the task in Mcp-Name on the Tasks extension's requests, as a client must", async () => {
    const { url, seen } = await recording();
    const { s: session } = scriptedSession(url);
    session.requestMeta = statelessMeta(STATELESS_REVISION);
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel'])
      await session.request(method, { taskId: 'task-1' });
    await session.request('tasks/get', { taskId: 'tâche' });
    expect(seen.map((s) => [s.headers['mcp-method'], s.headers['mcp-name']])).toEqual([
      ['tasks/get', 'task-1'],
      ['tasks/update', 'task-1'],
      ['tasks/cancel', 'task-1'],
      ['tasks/get', `=?base64?${Buffer.from('tâche').toString('base64')}?=`],
    ]);
    await session.close();
  });

  it('mirrors the arguments a tool marks with x-mcp-header in Mcp-Param-{Name} headers', async () => {
    const { url, seen } = await recording();
    const { s: session } = scriptedSession(url);
    session.requestMeta = statelessMeta(STATELESS_REVISION);
    session.paramHeaders = paramHeadersOf([
      {
        name: 'query',
        inputSchema: {
          type: 'object',
          properties: {
            region: { type: 'string', 'x-mcp-header': 'Region' },
            limit: { type: 'integer', 'x-mcp-header': 'Limit' },
            text: { type: 'string' },
          },
        },
      },
    ]);
    await session.request('tools/call', { name: 'query', arguments: { region: 'eu-west-1', limit: 5, text: 'x' } });
    await session.request('tools/call', { name: 'query', arguments: { region: 'Zürich', limit: null } });
    await session.request('tools/call', { name: 'echo', arguments: { region: 'eu' } });
    const params = (h: http.IncomingHttpHeaders) => Object.entries(h).filter(([k]) => k.startsWith('mcp-param-'));
    expect(seen.map((s) => params(s.headers))).toEqual([
      [
        ['mcp-param-region', 'eu-west-1'],
        ['mcp-param-limit', '5'],
      ],
      [['mcp-param-region', `=?base64?${Buffer.from('Zürich').toString('base64')}?=`]],
      [],
    ]);
    await session.close();
  });
});

describe('the reference server on the stateless wire over HTTP', () => {
  for (const mode of [STATELESS_REVISION, 'all']) {
    it(`passes every 2026-07-28 check with --revision ${mode}`, async () => {
      const r = await runCli([
        ...STARTED,
        ...SEED,
        '--revision',
        STATELESS_REVISION,
        '--',
        'node',
        HTTP_REFERENCE,
        '--revision',
        mode,
      ]);
      expect(r.exitCode, r.stdout).toBe(0);
      expect(notPassing(r.report)).toEqual([]);
      expect(r.report!.server?.protocolVersion).toBe(STATELESS_REVISION);
      const passed = r.report!.checks.filter((c) => c.status === 'pass').map((c) => c.id);
      const httpChecks = [...STATELESS_HTTP_CHECKS, ...STATELESS_HEADER_CHECKS];
      expect(httpChecks.map((c) => c.id).filter((id) => !passed.includes(id))).toEqual([]);
      for (const id of [
        'stateless/discover/result',
        'stateless/meta/required',
        'stateless/version/unsupported',
        'stateless/tools/order',
        'stateless/result-type',
        'stateless/caching',
      ])
        expect(passed).toContain(id);
      // The Tasks extension over HTTP: the reference refuses task requests without Mcp-Name, so these passing proves the suite sends it.
      expect(TASK_EXTENSION_CHECKS.map((c) => c.id).filter((id) => !passed.includes(id))).toEqual([]);
    });
  }

  it('is tested in both eras by --revision auto when it serves both', async () => {
    const runs = await conformEach(
      await resolveOptions({
        target: [process.execPath, HTTP_REFERENCE, '--revision', 'all'],
        httpUrl: 'http://127.0.0.1:{port}/mcp',
        port: 'auto',
        revision: 'auto',
        seed: 7,
        runs: 5,
      }),
    );
    expect(runs.map((r) => [r.report.server?.protocolVersion, verdict(r.report)])).toEqual([
      [STATELESS_REVISION, 'pass'],
      ['2025-11-25', 'pass'],
    ]);
  });
});

describe('each stateless HTTP fault of tier process trips exactly the check that targets it (the others: test/http-faults.test.ts)', () => {
  for (const { fault, check, expect: status } of STATELESS_HTTP_FAULT_ROWS.filter((row) => row.tier === 'process')) {
    it(`${fault} → ${check} ${status}`, async () => {
      const report = await runConformance({
        target: [process.execPath, FAULTY_HTTP, '--revision', STATELESS_REVISION],
        httpUrl: 'http://127.0.0.1:{port}/mcp',
        port: 'auto',
        env: { MCP_HTTP_FAULTS: fault },
        revision: STATELESS_REVISION,
        seed: 7,
        runs: 10,
      });
      expect(notPassing(report).map((line) => line.split(' ').slice(0, 2).join(' '))).toEqual([`${check}: ${status}`]);
    });
  }
});

describe('a subscriptions/listen answered with application/json (the official fixture does this)', () => {
  it('reads the body as it arrives: the finding is the content type of the acknowledgement, not its absence', async () => {
    const report = await runConformance({
      target: [process.execPath, FAULTY_HTTP, '--revision', STATELESS_REVISION],
      httpUrl: 'http://127.0.0.1:{port}/mcp',
      port: 'auto',
      env: { MCP_HTTP_FAULTS: 'listen-json-line' },
      revision: STATELESS_REVISION,
      only: ['stateless/subscriptions/listen'],
      timeout: 3,
    });
    const listen = report.checks.find((c) => c.id === 'stateless/subscriptions/listen');
    expect(listen?.status).toBe('fail');
    expect(listen?.message).toMatch(
      /^notifications\/subscriptions\/acknowledged came in an HTTP 200 application\/json body/,
    );
    // What came is in the transcript as it came.
    expect(JSON.stringify(listen?.transcript)).toContain('notifications/subscriptions/acknowledged');
  });
});
