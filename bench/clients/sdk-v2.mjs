#!/usr/bin/env node
// A contract client on the official TypeScript SDK v2 (@modelcontextprotocol/client): Streamable HTTP; the 2025
// revisions by `initialize`, 2026-07-28 by its version negotiation (server/discover and per-request _meta).
// `node bench/clients/sdk-v2.mjs <url>` with MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_PROTOCOL_VERSION) set.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { CAPABILITIES, runContract } from './contract.mjs';

await runContract((url, revision) => {
  const modern = revision !== undefined && revision >= '2026-07-28';
  const client = new Client(
    { name: 'sdk-v2-contract-client', version: '1.0.0' },
    { capabilities: CAPABILITIES, ...(modern && { versionNegotiation: { mode: 'auto' } }) },
  );
  return {
    client,
    connect: () => client.connect(new StreamableHTTPClientTransport(new URL(url))),
    handle: (method, handler) => client.setRequestHandler(method, handler),
    timedCall: (params, timeout) => client.callTool(params, { timeout }),
  };
});
