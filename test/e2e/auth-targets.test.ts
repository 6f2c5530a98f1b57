import { execa } from 'execa';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runConformance } from '../../src/index.js';
import type { Report } from '../../src/schema/generated/report.js';
import { ROOT } from '../helpers.js';

/** The TypeScript SDK's example server with its demo authorization server (a separate port), offline. */
const SDK_EXAMPLE = join(
  ROOT,
  'node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/simpleStreamableHttp.js',
);

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const statuses = (r: Report) =>
  Object.fromEntries(r.checks.filter((c) => c.id.startsWith('auth/')).map((c) => [c.id, c.status]));
const messageOf = (r: Report, id: string) => r.checks.find((c) => c.id === id)?.message ?? '';

/** Starts the example with `flags`, waits until both its servers listen, and runs the auth checks on it. */
async function runOnSdkExample(flags: string[]): Promise<Report> {
  const [mcp, auth] = [await freePort(), await freePort()];
  const server = execa(process.execPath, [SDK_EXAMPLE, ...flags], {
    reject: false,
    env: { MCP_PORT: String(mcp), MCP_AUTH_PORT: String(auth) },
  });
  try {
    await new Promise<void>((resolve) => {
      let seen = '';
      server.stdout!.on('data', (d: Buffer) => {
        seen += String(d);
        if (seen.includes('Authorization Server listening') && seen.includes('Streamable HTTP Server listening'))
          resolve();
      });
    });
    // The example names itself http://localhost:PORT/mcp: its metadata's resource is that URL.
    return await runConformance({ target: `http://localhost:${mcp}/mcp`, revision: '2025-11-25', only: ['auth/**'] });
  } finally {
    server.kill();
    await server;
  }
}

// Each run asks the demo authorization server for three tokens (registration, authorization, token request each): on a
// loaded machine that takes longer than the default minute.
describe('the TypeScript SDK example server with --oauth (its demo authorization server hands out codes without a login)', {
  timeout: 180_000,
}, () => {
  it('answers a token it cannot verify with HTTP 500, and serves tokens issued for another resource or for none', async () => {
    const report = await runOnSdkExample(['--oauth']);
    const s = statuses(report);
    expect(s['auth/challenge/unauthorized-401']).toBe('pass');
    expect(s['auth/metadata/document']).toBe('pass');
    expect(s['auth/token/forged']).toBe('fail');
    expect(messageOf(report, 'auth/token/forged')).toContain('a garbage bearer token → HTTP 500');
    expect(s['auth/token/audience']).toBe('fail');
    expect(messageOf(report, 'auth/token/audience')).toMatch(/another resource .*→ HTTP 200/);
  });

  it('with --oauth-strict still answers a garbage token with 500; its authorization server issues no token for another resource', async () => {
    const report = await runOnSdkExample(['--oauth', '--oauth-strict']);
    const s = statuses(report);
    expect(s['auth/token/forged']).toBe('fail');
    expect(s['auth/token/audience']).toBe('skip');
    expect(messageOf(report, 'auth/token/audience')).toContain('would not issue');
    expect(s['auth/session/not-authentication']).toBe('pass');
  });
});

/** A fastmcp 4 server whose `authenticate` verifies tokens with JWKSVerifier, trusting the run's --auth-server. */
const FASTMCP = join(ROOT, 'test/fixtures/servers/auth/fastmcp-jwks.mjs');

describe('fastmcp with authenticate and JWKSVerifier, trusting --auth-server', { timeout: 180_000 }, () => {
  const run = (flags: string[]) =>
    runConformance({
      target: [process.execPath, FASTMCP, ...flags],
      httpUrl: 'http://127.0.0.1:{port}/mcp',
      port: 'auto',
      revision: '2025-11-25',
      only: ['auth/**'],
      authServer: true,
    });

  it('passes every authorization check with the audience set', async () => {
    const report = await run([]);
    expect(report.checks.filter((c) => c.status !== 'pass').map((c) => `${c.id}: ${c.status} ${c.message}`)).toEqual([
      'auth/metadata/no-offline-access: skip applies to 2026-07-28; this run tests 2025-11-25',
    ]);
  });

  it('fails the audience check, and only it, without the audience', async () => {
    const report = await run(['--no-audience']);
    expect(report.checks.filter((c) => c.status === 'fail' || c.status === 'warn').map((c) => c.id)).toEqual([
      'auth/token/audience',
    ]);
  });
});
