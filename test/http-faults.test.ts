// Each HTTP fault of the faulty fixture trips exactly the check that targets it: the faulty app is served in this
// worker on a free port, and each run names its revision (no server to start, no polling, no probe of the eras). The
// stateless wire's rows are test/stateless-http-faults.test.ts, so the two files run on both workers.
import { describe, expect, it, vi } from 'vitest';
import { HTTP_CHECKS } from '../src/checks/http/checks.js';
import { HTTP_SESSION_CHECKS } from '../src/checks/http/sessions.js';
import { HTTP_STREAM_CHECKS } from '../src/checks/http/streams.js';
import { HTTP_ISOLATION_CHECKS } from '../src/checks/http/isolation.js';
import { HTTP_FAULT_ROWS } from './fault-rows.js';
import { notPassing, run } from './http-fault-run.js';

// Each row runs the whole suite and its server in this worker's event loop: three side by side (the config's default).
// Six were no faster (69 s against 66 s for the file, load 5) and, on a loaded machine, left requests of every row
// unanswered past --timeout, so rows warned on checks their fault does not touch.
vi.setConfig({ maxConcurrency: 3 });

/** The checks of the Streamable HTTP transport on the initialize wire. */
const TRANSPORT_CHECKS = [...HTTP_CHECKS, ...HTTP_SESSION_CHECKS, ...HTTP_STREAM_CHECKS, ...HTTP_ISOLATION_CHECKS];

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
