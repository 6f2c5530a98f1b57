// --revision all on a server that does not speak every revision: that revision is reported as not spoken and its
// checks skip; the revisions it speaks decide the verdict. A revision named alone still fails.
import { describe, expect, it } from 'vitest';
import { runConformance, type Serve, verdict } from '../src/index.js';
import type { Report } from '../src/schema/generated/report.js';
import { createServer, serveStreams } from '../examples/reference-server/mcp.mjs';
import { createFaultyServer } from './fixtures/servers/faulty-server.mjs';
import { createHttpServer } from '../examples/reference-server/http.mjs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The reference server on the initialize wire only (its default): server/discover is an unknown method (-32601). */
const legacyOnly: Serve = (streams) => serveStreams(createServer(), streams);
/** Answers every request with -32601, initialize too: a server that speaks none of the revisions. */
const refusesAll: Serve = ({ input, output }) => {
  let buffer = '';
  input.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const msg = JSON.parse(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      if ('id' in msg)
        output.write(
          `${JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } })}\n`,
        );
    }
  });
};
const QUICK = { timeout: 2, seed: 1, only: ['lifecycle/initialize/**', 'stateless/discover/result', 'ping/**'] };

/** The checks of one revision's run in a combined report, by id without the prefix. */
const of = (report: Report, revision: string) =>
  new Map(
    report.checks
      .filter((c) => c.id.startsWith(`${revision}/`))
      .map((c) => [c.id.slice(revision.length + 1), c] as const),
  );

describe.concurrent('--revision all', () => {
  it('reports 2026-07-28 as not spoken on a server that answers server/discover with -32601, and passes', async () => {
    const report = await runConformance({ ...QUICK, serve: legacyOnly, revision: 'all' });
    const stateless = of(report, '2026-07-28');
    expect(stateless.size).toBeGreaterThan(0);
    expect([...stateless.values()].every((c) => c.status === 'skip')).toBe(true);
    expect(stateless.get('stateless/discover/result')?.message).toMatch(
      /^the server does not speak 2026-07-28: server\/discover was answered with the error \{"code":-32601/,
    );
    expect(of(report, '2025-11-25').get('lifecycle/initialize/result')?.status).toBe('pass');
    expect(verdict(report)).toBe('pass');
  });

  it('reports 2026-07-28 as not spoken on a legacy HTTP server that wants a session (-32000, 400), and passes', async () => {
    // createHttpServer adds `http` after building the app, which the type inferred from JavaScript does not see.
    const app = createHttpServer({}) as unknown as { http: Server };
    await new Promise<void>((resolve) => app.http.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = app.http.address() as AddressInfo;
      const report = await runConformance({ ...QUICK, target: `http://127.0.0.1:${port}/mcp`, revision: 'all' });
      expect(of(report, '2026-07-28').get('stateless/discover/result')?.message).toMatch(
        /^the server does not speak 2026-07-28: server\/discover was answered with the error \{"code":-32000/,
      );
      expect(verdict(report)).toBe('pass');
    } finally {
      app.http.closeAllConnections();
      await new Promise((resolve) => app.http.close(resolve));
    }
  });

  it('still fails 2026-07-28 named alone', async () => {
    const report = await runConformance({ ...QUICK, serve: legacyOnly, revision: '2026-07-28' });
    expect(report.checks.find((c) => c.id === 'stateless/discover/result')?.status).toBe('fail');
  });

  it('reports a legacy revision that initialize refuses with an error as not spoken, and passes', async () => {
    const report = await runConformance({
      ...QUICK,
      serve: createFaultyServer(['refuse-2025-03-26']),
      revision: 'all',
    });
    const oldest = of(report, '2025-03-26');
    expect([...oldest.values()].every((c) => c.status === 'skip')).toBe(true);
    expect(oldest.get('lifecycle/initialize/result')?.message).toMatch(
      /^the server does not speak 2025-03-26: initialize at 2025-03-26 was answered with the error \{"code":-32602/,
    );
    expect(of(report, '2025-06-18').get('lifecycle/initialize/result')?.status).toBe('pass');
    expect(verdict(report)).toBe('pass');
  });

  it('fails every handshake of a server that speaks none of the revisions', async () => {
    const report = await runConformance({ ...QUICK, serve: refusesAll, revision: 'all' });
    const handshakes = report.checks.filter((c) =>
      /^(2026-07-28\/stateless\/discover|2025-[0-9-]+\/lifecycle\/initialize)\/result$/.test(c.id),
    );
    expect(handshakes.map((c) => c.status)).toEqual(['fail', 'fail', 'fail', 'fail']);
    expect(verdict(report)).toBe('fail');
  });
});
