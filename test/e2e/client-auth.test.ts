// The authorization scenarios as a user runs them: the CLI starts client processes, the reference client opens the
// authorization URL with the BROWSER the run sets (mcp-conformance-browser), and nothing secret reaches the output.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

const CLI = join(ROOT, 'dist/cli/main.js');
const REFERENCE_OAUTH = join(ROOT, 'examples/reference-client/oauth.mjs');
const SDK_CLIENT = join(ROOT, 'test/e2e/clients/sdk-auth-client.mjs');
const ISSUED = /\b(at|rt|code|secret)-[A-Za-z0-9_-]{24}\b/;

describe('client --scenario auth/…', () => {
  it('passes the reference client opening a browser, and writes every report without a secret', async () => {
    const out = await mkdtemp(join(tmpdir(), 'mcpc-auth-'));
    const r = await execa(
      'node',
      [
        CLI,
        'client',
        '--scenario',
        'auth/basic-cimd',
        '--scenario',
        'auth/pre-registration',
        '--out',
        out,
        '--',
        'node',
        REFERENCE_OAUTH,
      ],
      { reject: false },
    );
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'));
    expect(report.checks.find((c: { id: string }) => c.id === 'client-side/auth/cimd-document').status).toBe('pass');
    for (const f of ['report.json', 'junit.xml', 'index.html'])
      expect(await readFile(join(out, f), 'utf8')).not.toMatch(ISSUED);
    expect(r.stdout).not.toMatch(ISSUED);
  }, 60_000);

  it("fails the TypeScript SDK's client where it proceeds without PKCE support advertised", async () => {
    const out = await mkdtemp(join(tmpdir(), 'mcpc-auth-'));
    const r = await execa(
      'node',
      [CLI, 'client', '--scenario', 'auth/pkce-not-advertised', '--out', out, '--', 'node', SDK_CLIENT],
      { reject: false },
    );
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/FAIL\s+client-side\/auth\/pkce-required/);
    expect(r.stdout).not.toMatch(ISSUED);
  }, 60_000);

  it("passes the TypeScript SDK v2's DPoP with nonces and its enterprise-managed authorization, no JWT in the output", async () => {
    const out = await mkdtemp(join(tmpdir(), 'mcpc-auth-'));
    const scenarios = ['auth/dpop-nonce', 'auth/enterprise-managed-authorization', 'auth/metadata-default'];
    const r = await execa(
      'node',
      [CLI, 'client', ...scenarios.flatMap((s) => ['--scenario', s]), '--out', out, '--', 'node', SDK_CLIENT, '--v2'],
      { reject: false },
    );
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'));
    const status = (id: string) => report.checks.find((c: { id: string }) => c.id === `client-side/auth/${id}`).status;
    for (const id of ['dpop-token-request', 'dpop-scheme', 'dpop-proof', 'dpop-nonce', 'id-jag-exchange'])
      expect(status(id), id).toBe('pass');
    const jwt = /eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/;
    for (const f of ['report.json', 'junit.xml', 'index.html'])
      expect(await readFile(join(out, f), 'utf8')).not.toMatch(jwt);
    expect(r.stdout).not.toMatch(jwt);
  }, 60_000);
});
