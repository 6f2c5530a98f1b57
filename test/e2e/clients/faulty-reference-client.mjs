// The reference client as a process with one fault: `node faulty-reference-client.mjs <fault> <url>`, under the
// official contract's environment (the faults are those of test/fixtures/clients/faults.yaml).
import { connect } from '../../../examples/reference-client/client.mjs';

await connect(
  {
    url: process.argv.at(-1),
    scenario: process.env.MCP_CONFORMANCE_SCENARIO ?? 'initialize',
    protocolVersion: process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? '2025-11-25',
    context: JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}'),
  },
  process.argv[2],
);
// Keep-alive sockets would hold the process open after its work is done.
process.exit(0);
