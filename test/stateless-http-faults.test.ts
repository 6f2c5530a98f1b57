// Each stateless HTTP fault of the faulty fixture trips exactly the check that targets it (see test/http-faults.test.ts).
import { describe, expect, it, vi } from 'vitest';
import { STATELESS_HEADER_CHECKS } from '../src/checks/stateless/headers.js';
import { STATELESS_HTTP_CHECKS } from '../src/checks/stateless/http.js';
import { STATELESS_REVISION } from '../src/schema/validators.js';
import { STATELESS_HTTP_FAULT_ROWS } from './fault-rows.js';
import { notPassing, run } from './http-fault-run.js';

// Each row runs the whole suite and its server in this worker's event loop: three side by side (the config's default).
// Six were no faster (69 s against 66 s for the file, load 5) and, on a loaded machine, left requests of every row
// unanswered past --timeout, so rows warned on checks their fault does not touch.
vi.setConfig({ maxConcurrency: 3 });

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

// An x-mcp-header argument whose generated invalid value is no string, number or boolean has no header to go in: the
// reference server refuses such a call with HeaderMismatch before the tool runs, which is no warning.
it('passes tools/call/invalid-arguments where an invalid value cannot be mirrored in its Mcp-Param header', async () => {
  const report = await run(undefined, STATELESS_REVISION, undefined, ['tools/call/invalid-arguments'], 100);
  const check = report.checks.find((c) => c.id === 'tools/call/invalid-arguments')!;
  expect(check.status).toBe('pass');
  expect(check.message).toMatch(/refused with -32020 before the tool ran: greeting is mirrored in a header/);
});
