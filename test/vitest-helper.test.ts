// The suite inside this project's own vitest run, as a server project would use it: one test per check. The reference
// server runs in this process (`serve`); test/api.test.ts runs the helper on a server process.
import { defineConformanceSuite } from '../src/vitest.js';
import { createServer, serveStreams } from '../examples/reference-server/mcp.mjs';

defineConformanceSuite({
  name: 'the reference server through the vitest helper',
  serve: (streams) => serveStreams(createServer(), streams),
  timeout: 5,
});
