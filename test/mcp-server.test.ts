// `mcp-conformance mcp` as an MCP host sees it: the official SDK's client talks to the suite's MCP server in this
// process, and its run-suite tool tests the reference server (over HTTP, served here too).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../examples/reference-server/http.mjs';
import { serveMcp } from '../src/mcp/server.js';
import { suiteServer } from '../src/mcp/suite-tools.js';

type Text = { type: string; text: string };

/** A client connected to a new suite server; `close` ends the session as a host does (stdin closes). */
async function connect(): Promise<{ client: Client; close: () => Promise<void> }> {
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const served = serveMcp(suiteServer(), { input: toServer, output: fromServer });
  const client = new Client({ name: 'test-host', version: '1.0.0' });
  // The SDK's stdio transport over two streams: newline-delimited JSON, the same on either side.
  await client.connect(new StdioServerTransport(fromServer, toServer));
  return {
    client,
    close: async () => {
      await client.close();
      toServer.end();
      await served;
    },
  };
}

const textOf = (result: object) => ((result as { content: Text[] }).content ?? []).map((c) => c.text).join('\n');

describe('mcp-conformance mcp (the SDK client in-process)', () => {
  let reference: { http: import('node:http').Server };
  let url: string;
  let out: string;
  beforeAll(async () => {
    reference = createHttpServer({ revision: 'all' }) as unknown as { http: import('node:http').Server };
    await new Promise<void>((listening) => reference.http.listen(0, '127.0.0.1', listening));
    url = `http://127.0.0.1:${(reference.http.address() as AddressInfo).port}/mcp`;
    out = await mkdtemp(join(tmpdir(), 'mcpc-mcp-'));
  });
  afterAll(async () => {
    reference.http.closeAllConnections();
    await new Promise((closed) => reference.http.close(closed));
    await rm(out, { recursive: true, force: true });
  });

  it('lists its tools with truthful annotations, and no resources before a run', async () => {
    const { client, close } = await connect();
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual(['explain-check', 'list-checks', 'run-suite']);
    // A run starts processes and may call the target's tools: not read-only; listing and explaining are.
    expect(byName['run-suite'].annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName['list-checks'].annotations?.readOnlyHint).toBe(true);
    expect(byName['explain-check'].annotations?.readOnlyHint).toBe(true);
    expect((await client.listResources()).resources).toEqual([]);
    await close();
  });

  it('lists checks by area and level, and explains one', async () => {
    const { client, close } = await connect();
    const listed = textOf(await client.callTool({ name: 'list-checks', arguments: { area: 'tools', level: 'MUST' } }));
    const ids = listed
      .split('\n')
      .slice(0, -1)
      .map((line) => line.split('  ')[0]);
    expect(ids.length).toBeGreaterThan(3);
    expect(ids.every((id) => id.startsWith('tools/'))).toBe(true);
    expect(listed).toMatch(/  MUST  /);
    expect(listed).not.toMatch(/  SHOULD  /);
    const explained = textOf(
      await client.callTool({ name: 'explain-check', arguments: { id: 'base/response/id-echo' } }),
    );
    expect(explained).toContain('base.response.id-echo, MUST');
    expect(explained).toContain('string-ids (stdio) → fail');
    const unknown = await client.callTool({ name: 'explain-check', arguments: { id: 'tools/nope' } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/no check "tools\/nope"; nearest: /);
    await close();
  });

  it('runs the suite on the reference server: verdict, counts, progress, and the reports as resources', async () => {
    const { client, close } = await connect();
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'run-suite', arguments: { target: url, only: ['tools/**', 'lifecycle/**'], out } },
      undefined,
      { onprogress: (p) => progress.push(p.progress), timeout: 120_000 },
    );
    expect(result.isError).toBeFalsy();
    const answer = result.structuredContent as {
      verdict: string;
      counts: Record<string, number>;
      findings: unknown[];
      reports: { json: string; html: string };
    };
    expect(answer.verdict).toBe('pass');
    expect(answer.counts.pass).toBeGreaterThan(10);
    expect(answer.counts.fail).toBe(0);
    expect(textOf(result)).toMatch(/^verdict: PASS · \d+ checks: /);
    // One count over both eras' runs, always growing.
    expect(progress.length).toBeGreaterThan(5);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(new Set(progress).size).toBe(progress.length);
    const report = JSON.parse(await readFile(answer.reports.json, 'utf8'));
    expect(report.checks.some((c: { id: string }) => c.id.startsWith('2026-07-28/'))).toBe(true);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      'mcp-conformance://last-run/report.json',
      'mcp-conformance://last-run/index.html',
    ]);
    const read = await client.readResource({ uri: 'mcp-conformance://last-run/report.json' });
    expect(JSON.parse((read.contents[0] as { text: string }).text).runId).toBe(report.runId);
    await close();
  });

  it('stops a run the host cancels, and answers a bad target in one line', async () => {
    const { client, close } = await connect();
    const controller = new AbortController();
    const cancelled = client.callTool({ name: 'run-suite', arguments: { target: url, out } }, undefined, {
      signal: controller.signal,
      onprogress: () => controller.abort(),
      timeout: 120_000,
    });
    await expect(cancelled).rejects.toThrow(/abort/i);
    // The cancelled run ends its checks and frees the server for the next one.
    let answer: Awaited<ReturnType<Client['callTool']>> | undefined;
    for (let i = 0; i < 100; i++) {
      answer = await client.callTool({ name: 'run-suite', arguments: { target: 'no/such/server.js', out } });
      if (!textOf(answer).includes('in progress')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(answer?.isError).toBe(true);
    expect(textOf(answer!)).toMatch(/^mcp-conformance: .*no\/such\/server\.js/);
    expect(textOf(answer!)).not.toContain('    at ');
    await close();
  });
});
