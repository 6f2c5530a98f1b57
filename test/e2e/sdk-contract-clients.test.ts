import { execa } from 'execa';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/schema/generated/report.js';
import { ROOT, statusOf } from '../helpers.js';

const CLI = join(ROOT, 'dist/cli/main.js');

/** `mcp-conformance client` on a contract client of bench/clients/, for the given scenarios at 2025-11-25. */
async function judge(client: string, scenarios: string[]) {
  const out = await mkdtemp(join(tmpdir(), 'mcpc-client-'));
  const r = await execa(
    process.execPath,
    [
      CLI,
      'client',
      '--out',
      out,
      '--seed',
      '7',
      '--revision',
      '2025-11-25',
      ...scenarios.flatMap((s) => ['--scenario', s]),
      '--',
      process.execPath,
      join(ROOT, 'bench/clients', client),
    ],
    { reject: false, env: { NO_COLOR: '1' }, timeout: 120_000 },
  );
  const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report & {
    client?: { name?: string };
  };
  return { exitCode: r.exitCode, stdout: String(r.stdout), report };
}

// The official TypeScript SDK's client, v1 and v2, as a process under the official client contract: each does what
// the scenario asks (calls add_numbers from the list, accepts the elicitation with its defaults applied).
describe('the SDK contract clients', () => {
  for (const [client, name] of [
    ['sdk-v1.mjs', 'sdk-v1-contract-client'],
    ['sdk-v2.mjs', 'sdk-v2-contract-client'],
  ]) {
    it(`${client} passes tools_call and the elicitation defaults at 2025-11-25`, async () => {
      const r = await judge(client, ['tools_call', 'elicitation-sep1034-client-defaults']);
      expect(r.report.client?.name).toBe(name);
      expect(statusOf(r.report, 'client-side/tools/listed-only'), r.stdout).toBe('pass');
      expect(statusOf(r.report, 'client-side/capabilities/elicitation-defaults'), r.stdout).toBe('pass');
      expect(statusOf(r.report, 'client-side/lifecycle/initialize-first'), r.stdout).toBe('pass');
      expect(r.report.summary.fail, r.stdout).toBe(0);
      expect(r.exitCode, r.stdout).toBe(0);
    });
  }
});
