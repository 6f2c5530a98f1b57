// Each HTTP fault of the faulty fixture trips exactly the check that targets it: the faulty app is served in this
// worker on a free port, and each run names its revision (no server to start, no polling, no probe of the eras).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { HTTP_CHECKS } from '../src/checks/http/checks.js';
import { HTTP_SESSION_CHECKS } from '../src/checks/http/sessions.js';
import { HTTP_STREAM_CHECKS } from '../src/checks/http/streams.js';
import { STATELESS_HEADER_CHECKS } from '../src/checks/stateless/headers.js';
import { HTTP_ISOLATION_CHECKS } from '../src/checks/http/isolation.js';
import { STATELESS_HTTP_CHECKS } from '../src/checks/stateless/http.js';
import { type ConformanceOptions, runConformance } from '../src/index.js';
import type { Report } from '../src/schema/generated/report.js';
import { STATELESS_REVISION } from '../src/schema/validators.js';
import { HTTP_FAULT_ROWS, STATELESS_HTTP_FAULT_ROWS } from './fault-rows.js';
import { createFaultyHttpApp } from './fixtures/servers/faulty-http-server.mjs';

// Each row runs the whole suite and its server in this worker's event loop: three side by side (the config's default).
// Six were no faster (69 s against 66 s for the file, load 5) and, on a loaded machine, left requests of every row
// unanswered past --timeout, so rows warned on checks their fault does not touch.
vi.setConfig({ maxConcurrency: 3 });

/** The checks of the Streamable HTTP transport on the initialize wire. */
const TRANSPORT_CHECKS = [...HTTP_CHECKS, ...HTTP_SESSION_CHECKS, ...HTTP_STREAM_CHECKS, ...HTTP_ISOLATION_CHECKS];

/** Every check that neither passed nor was skipped, as `id: status`. */
const notPassing = (r: Report) =>
  r.checks
    .filter((c) => c.status !== 'pass' && c.status !== 'skip')
    .map((c) => `${c.id}: ${c.status}`)
    .sort();

type FaultyApp = Awaited<ReturnType<typeof createFaultyHttpApp>> & { http: Server };

/**
 * Runs the suite in `revision` against the faulty app with `fault` on, served here until the run ends; `change` alters
 * the app first, and `only` narrows the run.
 */
async function run(
  fault: string,
  revision: string,
  change?: (app: FaultyApp) => void,
  only?: string[],
): Promise<Report> {
  // createHttpServer adds `http` after building the app object, which the type inferred from JavaScript does not see.
  const app = (await createFaultyHttpApp([fault], {
    revision: revision === STATELESS_REVISION ? revision : undefined,
  })) as FaultyApp;
  change?.(app);
  await new Promise<void>((resolve) => app.http.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = app.http.address() as AddressInfo;
    return await runConformance({
      target: `http://127.0.0.1:${port}/mcp`,
      revision: revision as ConformanceOptions['revision'],
      seed: 7,
      runs: 10,
      only,
    });
  } finally {
    app.http.closeAllConnections();
    await new Promise((resolve) => app.http.close(resolve));
  }
}

describe.concurrent('each HTTP fault trips exactly the check that targets it', () => {
  it('covers every transport/http check with a fault', () => {
    expect(TRANSPORT_CHECKS.map((c) => c.id).filter((id) => !HTTP_FAULT_ROWS.some((f) => f.check === id))).toEqual([]);
  });
  // Nothing else may fail or warn but the checks of `also`, which the same fault breaks for the client's own session.
  for (const { fault, check, expect: status, also = [] } of HTTP_FAULT_ROWS.filter((row) => row.tier !== 'process')) {
    it(`${fault} → ${check} ${status}`, async () => {
      expect(notPassing(await run(fault, '2025-11-25'))).toEqual([`${check}: ${status}`, ...also].sort());
    });
  }
});

// The reference server closes no stream early, so sse-retry skips there: its pass is shown on the polling fault's
// server once its priming event carries the retry field the SHOULD asks for.
it('passes transport/http/sse-retry on a server that closes a stream early with a retry field', async () => {
  const report = await run(
    'poll-no-retry',
    '2025-11-25',
    (app) => {
      const prime = app.prime.bind(app);
      app.prime = (res, session) => {
        prime(res, session);
        res.write('retry: 500\n\n');
      };
    },
    ['transport/http/sse-retry'],
  );
  const check = report.checks.find((c) => c.id === 'transport/http/sse-retry');
  expect([check?.status, check?.message]).toEqual(['pass', expect.stringMatching(/after retry 500 ms/)]);
});

describe.concurrent('each stateless HTTP fault trips exactly the check that targets it', () => {
  it('covers every stateless/http check with a fault', () => {
    expect(
      [...STATELESS_HTTP_CHECKS, ...STATELESS_HEADER_CHECKS]
        .map((c) => c.id)
        .filter((id) => !STATELESS_HTTP_FAULT_ROWS.some((f) => f.check === id)),
    ).toEqual([]);
  });
  // A row of tier process is run by test/e2e/http-stateless.test.ts.
  for (const { fault, check, expect: status, also = [] } of STATELESS_HTTP_FAULT_ROWS.filter(
    (row) => row.tier !== 'process',
  )) {
    it(`${fault} → ${check} ${status}`, async () => {
      expect(notPassing(await run(fault, STATELESS_REVISION))).toEqual([`${check}: ${status}`, ...also].sort());
    });
  }
});
