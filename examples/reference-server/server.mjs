#!/usr/bin/env node
// MCP reference server over stdio (newline-delimited JSON-RPC 2.0).
// `--revision 2026-07-28` serves the stateless wire only, `--revision all` both wires.
import { parseArgs } from 'node:util';
import { createServer, runStdio } from './mcp.mjs';

const { values } = parseArgs({ options: { revision: { type: 'string' } } });
runStdio(createServer({ revision: values.revision }));
