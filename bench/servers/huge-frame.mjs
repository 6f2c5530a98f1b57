#!/usr/bin/env node
// The reference server with one more resource, ref://bench/huge: a 50 MiB text, so that every resources/read
// of it is one 50 MiB frame. Used by bench/run.mjs to measure the tool's peak RSS on huge frames.
import { createServer, runStdio } from '../../examples/reference-server/mcp.mjs';

const server = createServer();
server.resources.push({
  uri: 'ref://bench/huge',
  name: 'huge',
  title: 'Huge',
  description: 'A 50 MiB text.',
  mimeType: 'text/plain',
  text: 'x'.repeat(50 * 1024 * 1024),
});
runStdio(server);
