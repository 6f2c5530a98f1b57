// Issue 45: a first server written by hand has two faults, and the run reports each once, on the check that found it.
import { describe, expect, it } from 'vitest';
import { runConformance } from '../src/index.js';
import { serveNewcomer } from './fixtures/servers/newcomer-server.mjs';

describe('a hand-written first server (newcomer-server.mjs)', () => {
  it('gets one finding per fault: the crash on `null`, and the echoed id on the probe that drew it', async () => {
    const report = await runConformance({ serve: serveNewcomer, revision: '2025-11-25', seed: 1 });
    const findings = Object.fromEntries(
      report.checks.filter((c) => !['pass', 'skip'].includes(c.status)).map((c) => [c.id, c]),
    );
    expect(Object.keys(findings).sort()).toEqual([
      'base/request/null-id',
      'base/robustness/invalid-request',
      'base/robustness/malformed-frames',
      'pagination/invalid-cursor',
    ]);
    // The two faults.
    expect(findings['base/robustness/malformed-frames']).toMatchObject({
      status: 'fail',
      actual: { counterexample: 'null' },
    });
    expect(findings['base/robustness/malformed-frames'].message).toContain('the server crashed');
    expect(findings['base/request/null-id']).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('the line {"jsonrpc":"2.0","id":null,"method":"ping"}: the answer is malformed'),
      actual: { jsonrpc: '2.0', id: null, result: {} },
    });
    // Two SHOULDs it breaks as well, rightly: -32601 where -32600 is asked for, and a cursor it ignores.
    expect(findings['base/robustness/invalid-request']).toMatchObject({
      status: 'warn',
      actual: { error: { code: -32601 } },
    });
    expect(findings['pagination/invalid-cursor'].status).toBe('warn');
  });
});
