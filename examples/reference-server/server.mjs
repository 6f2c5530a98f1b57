#!/usr/bin/env node
// MCP reference server over stdio (newline-delimited JSON-RPC 2.0).
import { createServer, runStdio } from './mcp.mjs';

runStdio(createServer());
