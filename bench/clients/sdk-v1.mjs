#!/usr/bin/env node
// A contract client on the official TypeScript SDK v1 (@modelcontextprotocol/sdk): Streamable HTTP, the 2025 revisions
// (v1 speaks no 2026-07-28). `node bench/clients/sdk-v1.mjs <url>` with MCP_CONFORMANCE_SCENARIO set.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { CAPABILITIES, runContract } from './contract.mjs';

const SCHEMAS = {
  'elicitation/create': ElicitRequestSchema,
  'sampling/createMessage': CreateMessageRequestSchema,
  'roots/list': ListRootsRequestSchema,
};

await runContract((url) => {
  const client = new Client({ name: 'sdk-v1-contract-client', version: '1.0.0' }, { capabilities: CAPABILITIES });
  return {
    client,
    connect: () => client.connect(new StreamableHTTPClientTransport(new URL(url))),
    handle: (method, handler) => client.setRequestHandler(SCHEMAS[method], handler),
    timedCall: (params, timeout) => client.callTool(params, undefined, { timeout }),
  };
});
