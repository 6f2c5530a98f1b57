// The official TypeScript SDK's client (v1 and v2), judged in the test's own process as a contract client would drive
// it: connect, list, call what the scenario asks, end the session. v1 declares roots, sampling and elicitation with
// handlers, so the test server asks it for each.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { type ClientContract, runClientConformance } from '../src/run/client/run.js';

/** What the scenario asks of a client, the way a contract client does it with any SDK. */
async function drive(
  client: { listTools(): Promise<{ tools: { name: string }[] }>; callTool(p: object): Promise<unknown> },
  { scenario, context }: ClientContract,
  timed: (call: object, ms: number) => Promise<unknown>,
) {
  const { tools } = await client.listTools();
  if (scenario === 'tools_call') await client.callTool({ name: 'add_numbers', arguments: { a: 1, b: 2 } });
  // A host sets a timeout on its calls: the SDK cancels a call that runs past it (request-abandoned).
  const timeout = context.requestTimeoutMs as number | undefined;
  for (const call of (context.toolCalls as object[] | undefined) ?? [])
    await (timeout ? timed(call, timeout).catch(() => undefined) : client.callTool(call));
  if (['sse-retry', 'elicitation-sep1034-client-defaults'].includes(scenario))
    for (const t of tools) await client.callTool({ name: t.name, arguments: {} });
}

async function v1(contract: ClientContract) {
  const client = new Client(
    { name: 'sdk-v1', version: '1.0.0' },
    { capabilities: { roots: { listChanged: false }, sampling: {}, elicitation: { form: {} } } },
  );
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///tmp/p', name: 'p' }] }));
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: 'assistant',
    content: { type: 'text', text: 'hi' },
    model: 'test',
  }));
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    const props = (req.params as { requestedSchema?: { properties?: Record<string, { default?: unknown }> } })
      .requestedSchema?.properties;
    return {
      action: 'accept',
      content: Object.fromEntries(Object.entries(props ?? {}).map(([k, p]) => [k, p.default])),
    } as never;
  });
  const transport = new StreamableHTTPClientTransport(new URL(contract.url));
  await client.connect(transport);
  await drive(client as never, contract, (call, timeout) => client.callTool(call as never, undefined, { timeout }));
  await transport.terminateSession();
  await client.close();
}

async function v2(contract: ClientContract) {
  const client = new ClientV2({ name: 'sdk-v2', version: '1.0.0' }, { capabilities: {} });
  const transport = new TransportV2(new URL(contract.url));
  await client.connect(transport);
  await drive(client as never, contract, (call, timeout) => client.callTool(call as never, { timeout }));
  await transport.terminateSession();
  await client.close();
}

describe('the official SDK client', () => {
  it.each([
    ['v1', v1],
    ['v2', v2],
  ] as const)(
    '%s passes every client-side check of the initialize era but session-reinitialize; 2026-07-28 skips, as it sends initialize',
    async (name, client) => {
      const report = await runClientConformance({ client, timeoutMs: 3000, scenarioMs: 8000 });
      expect(report.client?.name).toBe(`sdk-${name}`);
      // The one finding: after a 404 for its session the SDK throws instead of starting a new session (2025-11-25
      // Session Management: the client "MUST start a new session by sending a new InitializeRequest").
      expect(
        report.checks
          .filter((c) => c.status === 'fail' || c.status === 'warn' || c.status === 'error')
          .map((c) => `${c.id}: ${c.message}`),
      ).toEqual([
        'client-side/http/session-reinitialize: session-expired @ 2025-11-25: POST got 404 for its session and no new initialize followed',
      ]);
      const verdict = (id: string) => report.checks.find((c) => c.id === id)?.status;
      expect(verdict('client-side/tools/cancel-abandoned')).toBe('pass');
      expect(verdict('client-side/tools/progress-token-unique')).toBe('skip');
      // Judged once as a client that does not speak 2026-07-28, not as a 2026 client missing _meta and headers.
      const stateless = report.checks.filter(
        (c) => c.id.startsWith('client-side/stateless/') || c.id === 'client-side/http/standard-headers',
      );
      expect(stateless.length).toBeGreaterThanOrEqual(4);
      expect(stateless.every((c) => c.status === 'skip' && c.message.includes('does not speak 2026-07-28'))).toBe(true);
    },
    90_000,
  );
});
