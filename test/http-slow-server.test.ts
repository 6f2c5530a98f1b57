// A slow HTTP server (slow-http-server.mjs) is judged on what it sent, never failed for its slowness: the probe of the
// request streams (transport/http/sse-*) watches a ping's stream for a few initialize round trips, up to --timeout, and
// a check's session still waiting for an answer listens for one more --timeout, to see it come late.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../src/index.js';
import { ROOT } from './helpers.js';

const SLOW_HTTP = join(ROOT, 'test/fixtures/servers/slow-http-server.mjs');

/** A run of the checks `only` on slow-http-server.mjs in `mode`, started by the run on a free port. */
const slowRun = (mode: string, only: string[], timeout?: number) =>
  runConformance({
    target: [process.execPath, SLOW_HTTP],
    httpUrl: 'http://127.0.0.1:{port}/mcp',
    port: 'auto',
    env: { SLOW_HTTP: mode },
    only,
    ...(timeout !== undefined && { timeout }),
  });

describe('the streams of a slow HTTP server', () => {
  it('are watched long enough for its ping to be answered', async () => {
    const report = await slowRun('busy', ['transport/http/sse-response', 'transport/http/sse-terminate']);
    const status = (id: string) => report.checks.find((c) => c.id === id);
    expect(status('transport/http/sse-response')).toMatchObject({ status: 'pass' });
    expect(status('transport/http/sse-terminate')).toMatchObject({ status: 'pass' });
  });
});

describe('a ping answered after its check gave up on it, over HTTP', () => {
  it('is a late answer (warn), not a server that stopped answering (fail)', async () => {
    const report = await slowRun('late-ping', ['base/batch/removed'], 2);
    const check = report.checks.find((c) => c.id === 'base/batch/removed');
    expect(check).toMatchObject({
      status: 'warn',
      message: expect.stringContaining('late answer (after the timeout): ping'),
    });
  });
});
