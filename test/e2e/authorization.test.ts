// `mcp-conformance authorization --url ISSUER` as a user runs it, against oidc-provider in this process: configured for
// MCP it passes with every report written; without S256 it fails that check and exits 1; the official line writes the
// official results layout.
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, runCli } from '../helpers.js';
import { startMock } from '../fixtures/authz/oauth2-mock-server.js';
import { type RunningProvider, startProvider } from '../fixtures/authz/oidc-provider.js';

const running: RunningProvider[] = [];
afterAll(() => Promise.all(running.map((p) => p.close())));

describe('mcp-conformance authorization', () => {
  it('passes an OpenID provider configured for MCP and writes the reports', async () => {
    const p = await startProvider();
    running.push(p);
    const r = await runCli(['authorization', '--url', p.issuer, '--scope', 'mcp']);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.report?.target).toEqual({ description: `authorization server ${p.issuer}`, url: p.issuer });
    expect(r.report?.checks.filter((c) => c.status !== 'pass').map((c) => c.id)).toEqual([]);
    expect(await readFile(join(r.out, 'junit.xml'), 'utf8')).toContain('<testsuite name="authz"');
  });

  it('exits 1 on a provider without S256, naming the check and the clients that break', async () => {
    const p = await startProvider('no-s256');
    running.push(p);
    const r = await runCli(['authorization', '--url', p.issuer, '--scope', 'mcp']);
    expect(r.exitCode, r.stdout + r.stderr).toBe(1);
    const failed = r.report?.checks.filter((c) => c.status === 'fail');
    expect(failed?.map((c) => c.id)).toEqual(['authz/metadata/pkce-s256']);
    expect(failed?.[0].message).toContain('breaks: every MCP client');
  });

  it('runs the official line: a pre-registered client, one scenario, its folder with checks.json', async () => {
    const m = await startMock(false);
    running.push(m);
    const dir = await mkdtemp(join(tmpdir(), 'authz-official-'));
    const line = ['--url', m.issuer, '--client-id', 'mcp-client', '-p', String(await freePort())];
    const r = await runCli(['authorization', ...line, '-o', dir, '--scenario', 'authorization-code-grant']);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    const [folder, ...more] = await readdir(dir);
    expect(more).toEqual([]);
    expect(folder).toMatch(/^authorization-server-authorization-code-grant-\d{4}-\d\d-\d\dT[\d-]+Z$/);
    const checks = JSON.parse(await readFile(join(dir, folder, 'checks.json'), 'utf8'));
    expect(checks.map((c: { id: string; status: string }) => [c.id, c.status])).toEqual([
      ['authz-code-token', 'SUCCESS'],
      ['authz-authorize-iss', 'SUCCESS'],
    ]);
  });
});
