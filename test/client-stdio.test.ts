// Client runs over stdio, in the test's own process: the reference client starts the test server with the contract's
// `spawn`; each start is its own session; the checks of the other transport skip with the reason.
import { describe, expect, it } from 'vitest';
import { CLIENT_CHECKS, CLIENT_SCENARIOS } from '../src/checks/client-side/index.js';
import { judge, runClientConformance, runStdioScenario } from '../src/run/client/run.js';
import { connect } from '../examples/reference-client/client.mjs';

const options = { timeoutMs: 2000, scenarioMs: 5000, transport: 'stdio' as const };
const scenario = (name: string) => CLIENT_SCENARIOS.find((s) => s.name === name)!;

describe('client runs over stdio', () => {
  it('the reference client passes or skips every check; the HTTP checks skip with the reason', async () => {
    const report = await runClientConformance({ ...options, client: (c) => connect(c) });
    const bad = report.checks.filter((c) => c.status !== 'pass' && c.status !== 'skip');
    expect(bad.map((c) => `${c.id}: ${c.status} ${c.message}`)).toEqual([]);
    const status = Object.fromEntries(report.checks.map((c) => [c.id, c]));
    expect(status['client-side/stdio/newline-delimited']?.status).toBe('pass');
    expect(status['client-side/stdio/shutdown-closes-stdin']?.status).toBe('pass');
    expect(status['client-side/capabilities/roots']?.status).toBe('pass');
    expect(status['client-side/stateless/request-state']?.status).toBe('pass');
    for (const c of report.checks.filter((c) => c.id.startsWith('client-side/http/'))) {
      expect(c.status).toBe('skip');
      expect(c.message).toBe('the client ran over stdio; this check judges Streamable HTTP');
    }
    // The scenarios about HTTP alone are not run over stdio.
    expect(report.client?.scenarios?.map((s) => s.name)).not.toContain('sse-retry');
  }, 60_000);

  it('the stdio checks skip over HTTP with the reason', async () => {
    const report = await runClientConformance({
      timeoutMs: 2000,
      scenarioMs: 5000,
      scenarios: ['initialize'],
      revision: '2025-11-25',
      client: (c) => connect(c),
    });
    for (const id of ['client-side/stdio/newline-delimited', 'client-side/stdio/shutdown-closes-stdin'])
      expect(report.checks.find((c) => c.id === id)).toMatchObject({
        status: 'skip',
        message: 'the client ran over http; this check judges stdio',
      });
  });

  it('each start of the server is its own session, judged on its own', async () => {
    const records = await runStdioScenario(scenario('tools_call'), '2025-11-25', {
      ...options,
      // One start to list, one to call (as some CLIs do); the second is pretty-printed.
      client: async (c) => {
        await connect({ ...c, scenario: 'initialize' });
        await connect(c, 'pretty-print');
      },
    });
    expect(records.map((r) => r.stdio?.spawn)).toEqual([1, 2]);
    expect(records.map((r) => r.conv.frames.filter((f) => f.dir === 'in').length)).toEqual([3, 4]);
    const [result] = judge(
      CLIENT_CHECKS.filter((c) => c.id === 'client-side/stdio/newline-delimited'),
      records,
    );
    expect(result).toMatchObject({ status: 'fail', message: expect.stringContaining('(server start 2)') });
    // Both sessions initialized on their own.
    expect(
      judge(
        CLIENT_CHECKS.filter((c) => c.id === 'client-side/lifecycle/initialize-first'),
        records,
      )[0]?.status,
    ).toBe('pass');
  });

  it('a scenario about Streamable HTTP alone, asked for over stdio, is refused with the reason', async () => {
    await expect(
      runClientConformance({ ...options, scenarios: ['sse-retry'], client: async () => undefined }),
    ).rejects.toThrow('scenario sse-retry does not run over stdio: it is about Streamable HTTP alone');
  });

  it('a client that never starts the server gets an error naming that, not a hang', async () => {
    const report = await runClientConformance({
      ...options,
      scenarios: ['initialize'],
      revision: '2025-11-25',
      client: async () => undefined,
    });
    expect(new Set(report.checks.map((c) => c.status))).toEqual(new Set(['error']));
    expect(report.checks[0]?.message).toContain('the client never started {server}');
  });

  it('blank lines, a message across lines and a last message without its newline are stray bytes; garbage is not JSON', async () => {
    const records = await runStdioScenario(scenario('initialize'), '2025-11-25', {
      ...options,
      client: async (c) => {
        const child = c.spawn!();
        const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } };
        child.stdin.write(`${JSON.stringify(init)}\n\n{"jsonrpc":"2.0",\n"method":"notifications/initialized"}\n`);
        child.stdin.write('hello\n{"jsonrpc":"2.0","id":2,"method":"ping"}');
        child.stdin.end();
      },
    });
    const [r] = records;
    expect(r?.stdio).toMatchObject({
      multiline: [{ lines: 2 }],
      strays: [{ why: 'a blank line' }, { why: 'the last message has no newline after it' }],
      end: 'stdin',
    });
    const verdicts = Object.fromEntries(judge(CLIENT_CHECKS, records).map((c) => [c.id, c.status]));
    expect(verdicts['client-side/stdio/newline-delimited']).toBe('fail');
    expect(verdicts['client-side/frames/json']).toBe('fail');
    expect(verdicts['client-side/stdio/shutdown-closes-stdin']).toBe('pass');
  });
});
