// The client-side checks against the reference client (every check passes or skips) and its faults (each row trips
// its check with its verdict), all in the test's own process.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CLIENT_CHECKS, CLIENT_SCENARIOS } from '../src/checks/client-side/index.js';
import { fromClient } from '../src/checks/kit/client-check.js';
import {
  type ClientContract,
  judge,
  runClientConformance,
  runScenario,
  runStdioScenario,
} from '../src/run/client/run.js';
import { validate } from '../src/schema/validators.js';
import { connect } from '../examples/reference-client/client.mjs';

interface Row {
  fault: string;
  check: string;
  /** `note`: a pass whose message notes what was seen (a check with no spec sentence to warn by). */
  expect: 'fail' | 'warn' | 'note';
  scenario: string;
  revision: string;
  /** stdio: the reference client starts the test server with the contract's spawn. */
  transport?: 'stdio';
  why: string;
}
const ROWS = (
  parse(readFileSync(new URL('./fixtures/clients/faults.yaml', import.meta.url), 'utf8')) as { faults: Row[] }
).faults;
const PROBE_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'dual-era', version: '1.0.0' },
};
const options = { timeoutMs: 2000, scenarioMs: 5000 };

describe('client-side checks', () => {
  it('pass (or skip) on the reference client, every scenario at every revision it has', async () => {
    const report = await runClientConformance({ ...options, client: (c) => connect(c) });
    const bad = report.checks.filter((c) => (c.status !== 'pass' && c.status !== 'skip') || / note /.test(c.message));
    expect(bad.map((c) => `${c.id}: ${c.status} ${c.message}`)).toEqual([]);
    expect(report.client?.name).toBe('mcp-conformance-reference-client');
    // Only checks that need a client to act skip (and the undeclared-capability one, as it declares every capability).
    expect(report.checks.filter((c) => c.status === 'skip').map((c) => c.id)).toEqual([
      'client-side/capabilities/undeclared-answered',
      // Over HTTP; test/client-stdio.test.ts runs it over stdio.
      'client-side/stdio/newline-delimited',
      'client-side/stdio/shutdown-closes-stdin',
    ]);
  }, 60_000);

  it('has a fault row for every check, and every row names a check', () => {
    expect([...new Set(ROWS.map((r) => r.check))].sort()).toEqual(CLIENT_CHECKS.map((c) => c.id).sort());
  });

  it('a dual-era client that probes server/discover, is refused and falls back to initialize passes', async () => {
    const scenario = CLIENT_SCENARIOS.find((s) => s.name === 'initialize')!;
    const record = await runScenario(scenario, '2025-11-25', {
      ...options,
      client: async (c) => {
        const probe = await fetch(c.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'server/discover',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'server/discover', params: { _meta: PROBE_META } }),
        });
        // No session yet: 2025-11-25 Session Management, a request other than initialize without one gets 400.
        expect(probe.status).toBe(400);
        expect(await probe.json()).toMatchObject({ id: 0, error: { code: -32000 } });
        await connect(c);
      },
    });
    const results = judge(CLIENT_CHECKS, [record]);
    expect(results.find((r) => r.id === 'client-side/lifecycle/initialize-first')?.message).toContain(
      'after a server/discover probe the server refused',
    );
    expect(
      results.filter((r) => r.status !== 'pass' && r.status !== 'skip').map((r) => `${r.id}: ${r.message}`),
    ).toEqual([]);
  });

  it('GETs before initialize (an OAuth probe) are not held to the session id and version header', async () => {
    const scenario = CLIENT_SCENARIOS.find((s) => s.name === 'initialize')!;
    const record = await runScenario(scenario, '2025-11-25', {
      ...options,
      client: async (c) => {
        // What mcp-remote does first: GET the endpoint and the protected-resource metadata, with no session yet.
        for (const path of ['/mcp', '/.well-known/oauth-protected-resource/mcp'])
          await (
            await fetch(new URL(path, c.url), { headers: { accept: 'application/json, text/event-stream' } })
          ).text();
        await connect(c);
      },
    });
    expect(record.http?.exchanges.filter((x) => x.method === 'GET').length).toBe(2);
    const results = judge(CLIENT_CHECKS, [record]);
    const verdicts = Object.fromEntries(results.map((r) => [r.id, r.status]));
    expect(verdicts['client-side/http/session-id']).toBe('pass');
    expect(verdicts['client-side/http/protocol-version-header']).toBe('pass');
  });

  it('a new initialize after a 404 is not held to the version header of the session it replaces', async () => {
    const scenario = CLIENT_SCENARIOS.find((s) => s.name === 'session-expired')!;
    const original = globalThis.fetch;
    const record = await runScenario(scenario, '2025-11-25', {
      ...options,
      client: async (c) => {
        // What mcporter does: the new initialize goes without MCP-Protocol-Version (nothing is negotiated yet).
        globalThis.fetch = (url, init) => {
          if (init && String(init.body).includes('"initialize"'))
            delete (init.headers as Record<string, string>)['mcp-protocol-version'];
          return original(url, init);
        };
        try {
          await connect(c);
        } finally {
          globalThis.fetch = original;
        }
      },
    });
    const verdicts = Object.fromEntries(judge(CLIENT_CHECKS, [record]).map((r) => [r.id, r.status]));
    expect(verdicts['client-side/http/session-reinitialize']).toBe('pass');
    expect(verdicts['client-side/http/protocol-version-header']).toBe('pass');
    expect(verdicts['client-side/http/session-id']).toBe('pass');
  });

  it('version-retry names the refusal it saw, and skips a first request refused otherwise', async () => {
    const scenario = CLIENT_SCENARIOS.find((s) => s.name === 'request-metadata')!;
    const retry = CLIENT_CHECKS.filter((c) => c.id === 'client-side/stateless/version-retry');
    const gaveUp = await runScenario(scenario, '2026-07-28', {
      ...options,
      client: (c) => connect(c, 'no-version-retry'),
    });
    expect(judge(retry, [gaveUp])[0]?.message).toMatch(
      /server\/discover was refused with -32022 \(supported \["2026-07-28"\], requested "2026-07-28"\) and not retried/,
    );
    // The same record with the refusal made another error: not the case this check judges.
    const other = {
      ...gaveUp,
      conv: Object.assign(Object.create(Object.getPrototypeOf(gaveUp.conv)), gaveUp.conv, {
        frames: gaveUp.conv.frames.map((f) =>
          f.dir === 'out' && (f.message as { error?: object })?.error
            ? { ...f, message: { ...(f.message as object), error: { code: -32601, message: 'method not found' } } }
            : f,
        ),
      }),
    };
    expect(judge(retry, [other])[0]).toMatchObject({
      status: 'skip',
      message: expect.stringContaining('error -32601, not -32022'),
    });
  });

  it('frames/schema leaves a breakage another check owns to that check, and judges the rest of the frame', async () => {
    const scenario = CLIENT_SCENARIOS.find((s) => s.name === 'initialize')!;
    const record = await runScenario(scenario, '2026-07-28', { ...options, client: (c) => connect(c, 'no-meta') });
    const list = fromClient(record).find((m) => m.method === 'tools/list')!;
    // The schema alone would reject the request: its _meta is request-meta's finding.
    expect(validate('2026-07-28', 'ListToolsRequest', list)).toMatchObject({ ok: false });
    const verdicts = judge(CLIENT_CHECKS, [record]).filter((r) => r.status === 'fail');
    expect(verdicts.map((r) => r.id)).toEqual(['client-side/stateless/request-meta']);
    // The same frame broken elsewhere as well is still the schema's finding.
    const frame = record.conv.frames.find((f) => f.message === list)!;
    frame.message = { ...list, params: { ...(list.params as object), cursor: 5 } };
    const schema = judge(
      CLIENT_CHECKS.filter((c) => c.id === 'client-side/frames/schema'),
      [record],
    )[0];
    expect(`${schema.status}: ${schema.message}`).toMatch(
      /^fail: .*tools\/list request .*\/params\/cursor must be string/,
    );
  });

  it.each(ROWS)('$fault trips $check ($expect) @ $revision', async (row) => {
    const scenario = CLIENT_SCENARIOS.find((s) => s.name === row.scenario)!;
    const run = { ...options, client: (c: ClientContract) => connect(c, row.fault) };
    const records =
      row.transport === 'stdio'
        ? await runStdioScenario(scenario, row.revision, run)
        : [await runScenario(scenario, row.revision, run)];
    const results = judge(CLIENT_CHECKS, records);
    const got = results.find((r) => r.id === row.check)!;
    expect(`${got.status}: ${got.message}`).toMatch(
      row.expect === 'note' ? /^pass: .*: note / : new RegExp(`^${row.expect}: `),
    );
    // One fault, one finding.
    expect(
      results.filter((r) => r.id !== row.check && (r.status === 'fail' || r.status === 'warn')).map((r) => r.id),
    ).toEqual([]);
  });
});
