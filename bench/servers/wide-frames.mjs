#!/usr/bin/env node
// The reference server whose first initialize result carries 15 MiB of instructions, so that every session (server
// process) a run opens receives one 15 MiB frame as it starts, all at about the same time. Used by bench/wide-frames.mjs to measure the
// tool's peak RSS while many sessions assemble large lines at once.
import { handlers, runStdio, createServer } from '../../examples/reference-server/mcp.mjs';

const INSTRUCTIONS = 'x'.repeat(15 * 1024 * 1024);
const initialize = handlers.initialize;
let first = true;
handlers.initialize = (params, server) => {
  const result = initialize(params, server);
  if (!first) return result;
  first = false;
  return { ...result, instructions: INSTRUCTIONS };
};
runStdio(createServer());
