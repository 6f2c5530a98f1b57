// `mcp-conformance mcp` as a process: the suite judges its own MCP server (stdio, both eras), and an MCP host started
// with the one line of the README runs the suite through it on the reference server.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, REFERENCE, runCli } from '../helpers.js';

describe('mcp-conformance mcp', () => {
  it('passes the suite, stdio, on both eras', async () => {
    const run = await runCli(['--', process.execPath, CLI, 'mcp']);
    expect(run.stdout).toContain('revisions   2026-07-28: pass · 2025-11-25: pass');
    expect(run.exitCode).toBe(0);
  }, 180_000);

  it('runs the suite on the reference server for a host over stdio', async () => {
    const out = await mkdtemp(join(tmpdir(), 'mcpc-host-'));
    const client = new Client({ name: 'host', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], stderr: 'ignore' }));
    try {
      const result = await client.callTool(
        { name: 'run-suite', arguments: { target: REFERENCE, revision: '2025-11-25', only: ['tools/**'], out } },
        undefined,
        { timeout: 120_000 },
      );
      const answer = result.structuredContent as { verdict: string; counts: { pass: number } };
      expect(answer.verdict).toBe('pass');
      expect(answer.counts.pass).toBeGreaterThan(3);
    } finally {
      await client.close();
    }
  }, 180_000);
});
