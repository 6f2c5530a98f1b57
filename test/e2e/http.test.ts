import { execa } from 'execa';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HTTP_SESSION_CHECKS } from '../../src/checks/http/sessions.js';
import { HTTP_STREAM_CHECKS } from '../../src/checks/http/streams.js';
import { differences, notPassing, ROOT, runCli, statusOf } from '../helpers.js';

const HTTP_REFERENCE = join(ROOT, 'examples/reference-server/http.mjs');
const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
/** The CLI starts the server on a free port and tests it over HTTP. */
const STARTED = ['--http-url', 'http://127.0.0.1:{port}/mcp', '--port', 'auto'];
/** The same generated values in runs that are compared, and fewer of them: these runs are about the transport. */
const SEED = ['--seed', '7', '--runs', '10'];
const TOKEN = 's3cret-token-4711';

// The runs here go one after another: each starts a server and a CLI, and the machines that run the suite may be small.
// The fault rows run in the test's worker: test/http-faults.test.ts.

describe('the reference server over HTTP', () => {
  it('passes everything when already running at a URL, and no report shows the --header value', async () => {
    const server = execa(process.execPath, [HTTP_REFERENCE, '--port', '0'], { reject: false });
    try {
      const url = await new Promise<string>((resolve) =>
        server.stderr!.on('data', (d: Buffer) => {
          const m = /serving MCP at (\S+)/.exec(String(d));
          if (m) resolve(m[1]!);
        }),
      );
      const r = await runCli([url, ...SEED, '--verbose', '--header', `Authorization: Bearer ${TOKEN}`]);
      expect(r.exitCode, r.stdout).toBe(0);
      expect(notPassing(r.report)).toEqual([]);
      expect(r.report!.target).toEqual({ description: url, url });
      const files = await Promise.all(
        ['report.json', 'junit.xml', 'index.html'].map((f) => readFile(join(r.out, f), 'utf8')),
      );
      for (const text of [r.stdout, r.stderr, ...files]) expect(text).not.toContain(TOKEN);
      expect(files[0]).toContain('headers Authorization: ***');
    } finally {
      server.kill();
      await server;
    }
  });

  it('says in one line, with its output, that a started server never answered', async () => {
    const r = await runCli([...STARTED, '--', 'node', '-e', "console.error('boom: no API key'); process.exit(3)"]);
    expect(r.exitCode).toBe(2);
    expect(r.report).toBeUndefined();
    expect(r.stderr).toMatch(
      /^mcp-conformance: node -e .* exited \(code 3, signal none\) before answering at http:\/\/127\.0\.0\.1:\d+\/mcp\nlast server output:\n {2}boom: no API key$/,
    );
  });
});

describe('server-everything over HTTP', () => {
  it('agrees with its stdio run on every check both transports run, but three the SDK itself answers differently', async () => {
    const [stdio, http] = await Promise.all([
      // Its long-running operation takes 10 s with the defaults a call keeps, as long as the default --timeout: which
      // comes first would decide tools/call/valid-arguments by chance. With 20 s both runs see the answer.
      runCli([...SEED, '--timeout', '20', '--', 'node', EVERYTHING, 'stdio']),
      runCli([...STARTED, ...SEED, '--timeout', '20', '--', 'node', EVERYTHING, 'streamableHttp']),
    ]);
    for (const r of [stdio, http]) expect(r.report?.summary.error, r.stdout).toBe(0);
    expect(await differences(stdio.report!, http.report!)).toEqual([
      // Over stdio the SDK ignores a line that is not JSON (silence warns); over HTTP its transport answers 400 and -32700.
      'base/robustness/malformed-json: warn → pass',
      // Over stdio the SDK drops a request with id null in silence (tolerated); over HTTP its transport refuses the
      // body with 400 and -32700 ("Invalid JSON-RPC message") where the case asks for -32600.
      'base/request/null-id: pass → warn',
      // Over HTTP the SDK wants a session for every request but initialize: a ping before initialize gets
      // 400 "Server not initialized" (the transport's SHOULD-400 for a missing session id wins over ping's exemption).
      'lifecycle/ping/before-initialize: pass → warn',
    ]);
    // The SDK answers every request with an SSE stream (so no JSON answer to judge), primes it, and sends nothing on
    // the GET stream unprompted (so no server request to compare across streams).
    const verdicts = Object.fromEntries(http.report!.checks.map((c) => [c.id, c.status]));
    expect(
      Object.fromEntries([...HTTP_SESSION_CHECKS, ...HTTP_STREAM_CHECKS].map((c) => [c.id, verdicts[c.id]])),
    ).toEqual({
      'transport/http/notification-reject': 'pass',
      'transport/http/session-id-secure': 'pass',
      'transport/http/session-delete': 'pass',
      'transport/http/protocol-version-missing': 'pass',
      'transport/http/json-one': 'skip',
      'transport/http/sse-response': 'pass',
      'transport/http/sse-terminate': 'pass',
      'transport/http/sse-prime': 'pass',
      'transport/http/sse-retry': 'skip',
      'transport/http/sse-data': 'pass',
      'transport/http/get-no-response': 'pass',
      'transport/http/concurrent-streams': 'pass',
      'transport/http/no-broadcast': 'skip',
      // Its event store replays every later event of the session on a GET with Last-Event-ID: the other ping's response too.
      'transport/http/resume-same-stream': 'fail',
    });
  }, 180_000);

  it('completes over legacy HTTP+SSE (detected), with initialize passing', async () => {
    const r = await runCli([
      '--http-url',
      'http://127.0.0.1:{port}/sse',
      '--port',
      'auto',
      ...SEED,
      '--',
      'node',
      EVERYTHING,
      'sse',
    ]);
    expect([0, 1]).toContain(r.exitCode);
    expect(r.report?.summary.error).toBe(0);
    expect(statusOf(r.report, 'lifecycle/initialize/result')).toBe('pass');
    expect(statusOf(r.report, 'ping/respond')).toBe('pass');
    expect(r.report!.checks.find((c) => c.id === 'transport/http/notification-202')?.message).toContain(
      'this run uses legacy HTTP+SSE',
    );
  }, 180_000);
});
