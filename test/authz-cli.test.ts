// `mcp-conformance authorization` with the official suite's flags: the settings file read strictly, --scenario's table,
// --spec-version's filter by the catalogue's revisions, the default port of a pre-registered client, and the official
// results layout of -o/--output-dir, written from a run on oidc-provider.
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AUTHZ_CHECKS } from '../src/checks/authz/checks.js';
import { authorizationLine, OFFICIAL_PORT } from '../src/cli/authorization-line.js';
import { UsageError } from '../src/cli/options.js';
import { explainData } from '../src/explain/data.js';
import { OFFICIAL_AUTHZ_SCENARIOS } from '../src/report/official-authz-scenarios.js';
import type { OfficialCheck } from '../src/report/official-results.js';
import { type RunningProvider, startProvider } from './fixtures/authz/oidc-provider.js';
import { runCliHere } from './helpers.js';

const line = (argv: string[]) => authorizationLine(argv, 'USAGE');

async function settings(content: unknown): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'authz-settings-')), 'settings.json');
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('the official authorization flags', () => {
  it('reads the settings file, and a flag given overrides its value', async () => {
    const file = await settings({
      url: 'https://as.example/',
      clientId: 'from-file',
      clientSecret: 's3cret',
      resource: 'https://mcp.example/mcp',
      port: 8123,
      scenario: 'authorization-code-grant',
    });
    const l = await line(['--file', file, '--client-id', 'from-flag']);
    expect(l?.run).toMatchObject({
      issuer: 'https://as.example',
      clientId: 'from-flag',
      clientSecret: 's3cret',
      resource: 'https://mcp.example/mcp',
      redirectPort: 8123,
      checks: OFFICIAL_AUTHZ_SCENARIOS['authorization-code-grant'],
    });
    expect((await line(['--file', file, '-p', '9000']))?.run.redirectPort).toBe(9000);
  });

  it.each([
    [{ url: 'https://as.example', clientID: 'x' }, /unknown key "clientID" \(expected url, scenario, clientId/],
    [{ url: 'https://as.example', port: '3000' }, /port must be a non-empty number, not "3000"/],
    [{ url: 'https://as.example', port: 70000 }, /port takes a port number from 1 to 65535/],
    [{ clientId: 'x' }, /url is required/],
    [['https://as.example'], /must be a JSON object/],
    ['{"url": ', /settings file .*settings\.json: /],
  ])('refuses the settings file %j, naming what is wrong', async (content, message) => {
    const file = await settings(content);
    // A file without url is refused even with --url: the official runner reads the file on its own first.
    await expect(line(['--file', file, '--url', 'https://as.example'])).rejects.toThrow(message);
    await expect(line(['--file', file, '--url', 'https://as.example'])).rejects.toBeInstanceOf(UsageError);
  });

  it('maps each official scenario to its checks, and an unknown name is a usage error listing the names', async () => {
    for (const [name, ids] of Object.entries(OFFICIAL_AUTHZ_SCENARIOS)) {
      expect(ids.length).toBeGreaterThan(0);
      for (const id of ids) expect(AUTHZ_CHECKS.map((c) => c.id)).toContain(id);
      expect((await line(['--url', 'https://as.example', '--scenario', name]))?.scenario).toBe(name);
    }
    await expect(line(['--url', 'https://as.example', '--scenario', 'authorization-server-metadata'])).rejects.toThrow(
      /unknown scenario "authorization-server-metadata"; the official authorization scenarios: authorization-server-metadata-endpoint, authorization-code-grant/,
    );
  });

  it('gives a pre-registered client the official port, and a registering run a free one', async () => {
    expect((await line(['--url', 'https://as.example', '--client-id', 'c']))?.run.redirectPort).toBe(OFFICIAL_PORT);
    expect((await line(['--url', 'https://as.example']))?.run.redirectPort).toBe(0);
    await expect(line(['--url', 'https://as.example', '--port', '0'])).rejects.toThrow(/from 1 to 65535/);
  });

  it('takes --spec-version as a revision (draft: 2026-07-28) and refuses an unknown one', async () => {
    expect((await line(['--url', 'https://as.example', '--spec-version', 'draft']))?.run.revision).toBe('2026-07-28');
    expect((await line(['--url', 'https://as.example', '--spec-version', '2025-06-18']))?.run.revision).toBe(
      '2025-06-18',
    );
    await expect(line(['--url', 'https://as.example', '--spec-version', '2099-01-01'])).rejects.toThrow(
      /--spec-version takes one of/,
    );
  });

  it('writes the reports to --output-dir unless --out names another folder', async () => {
    expect((await line(['--url', 'https://as.example', '-o', 'res']))?.out).toBe('res');
    expect(await line(['--url', 'https://as.example', '-o', 'res', '--out', 'ours'])).toMatchObject({
      out: 'ours',
      outputDir: 'res',
    });
  });

  it('refuses a resource with a fragment, as the official runner does', async () => {
    await expect(line(['--url', 'https://as.example', '--resource', 'https://mcp.example/#x'])).rejects.toThrow(
      /without a fragment/,
    );
  });
});

const running: RunningProvider[] = [];
afterAll(() => Promise.all(running.map((p) => p.close())));

describe('mcp-conformance authorization, the official way', () => {
  const run = async (...args: string[]) => {
    const p = await startProvider();
    running.push(p);
    const dir = await mkdtemp(join(tmpdir(), 'authz-official-'));
    const r = await runCliHere(['authorization', '--url', p.issuer, '--scope', 'mcp', '-o', dir, ...args]);
    const folders = (await readdir(dir)).sort();
    const checks = async (folder: string) =>
      JSON.parse(await readFile(join(dir, folder, 'checks.json'), 'utf8')) as OfficialCheck[];
    return { r, folders, checks };
  };

  it('--spec-version 2025-06-18 drops the checks whose rule came later, by the catalogue rows', async () => {
    const { r } = await run('--spec-version', '2025-06-18');
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    const later = AUTHZ_CHECKS.filter(
      (c) => !explainData().requirements[c.requirement.id].revisions.includes('2025-06-18'),
    ).map((c) => c.id);
    expect(later).toEqual(expect.arrayContaining(['authz/metadata/pkce-s256', 'authz/registration/cimd']));
    expect(r.report?.checks.map((c) => c.id)).toEqual(
      AUTHZ_CHECKS.map((c) => c.id).filter((id) => !later.includes(id)),
    );
  });

  it('-o writes one authorization-server-<scenario>-<time> folder per official scenario, with its checks', async () => {
    const { r, folders, checks } = await run();
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(folders.map((f) => f.replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, ''))).toEqual([
      'authorization-server-authorization-code-grant',
      'authorization-server-authorization-server-metadata-endpoint',
    ]);
    const metadata = await checks(folders[1]);
    expect(metadata.map((c) => [c.details.check, c.status])).toEqual([
      ['authz/metadata/discovery', 'SUCCESS'],
      ['authz/metadata/issuer', 'SUCCESS'],
    ]);
    expect(r.stdout).toContain('official    2 scenario folders with checks.json');
  });

  it("--scenario runs that scenario's checks only, and writes its folder alone", async () => {
    const { r, folders, checks } = await run('--scenario', 'authorization-server-metadata-endpoint');
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.report?.checks.map((c) => c.id)).toEqual(
      OFFICIAL_AUTHZ_SCENARIOS['authorization-server-metadata-endpoint'],
    );
    expect(folders).toHaveLength(1);
    expect((await checks(folders[0])).map((c) => c.id)).toEqual(['authz-metadata-discovery', 'authz-metadata-issuer']);
  });
});
