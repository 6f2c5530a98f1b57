import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SCENARIOS, scenarioNamed } from '../../auth/scenarios.js';
import { type ScenarioRun, runScenario } from '../../run/client-auth.js';
import { EXIT } from '../exit-codes.js';

const USAGE = [
  'Usage: mcp-conformance client-auth [--scenario NAME]... [--extensions] [--scenario-timeout S] [--out DIR] -- <client command…>',
  '',
  'Judges a client as an OAuth client: for each authorization scenario (default: the core and draft ones;',
  '--extensions adds the extension tier; only core scenarios, or those named, set the exit code) it serves a protected MCP endpoint and an authorization server on loopback, starts the client',
  'command with the server URL as its last argument (MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_CONTEXT,',
  'MCP_CONFORMANCE_PROTOCOL_VERSION and BROWSER set), and judges every HTTP exchange it makes. Writes',
  'DIR/client-auth.json (default DIR: reports). Secrets read ***. See docs/clients-auth.md.',
].join('\n');

/** `mcp-conformance client-auth … -- <cmd…>` */
export async function clientAuthCommand(argv: string[], signal?: AbortSignal): Promise<number> {
  const dash = argv.indexOf('--');
  const opts = dash < 0 ? argv : argv.slice(0, dash);
  const command = dash < 0 ? [] : argv.slice(dash + 1);
  const names: string[] = [];
  let extensions = false;
  let timeoutS = 30;
  let out = 'reports';
  try {
    for (let i = 0; i < opts.length; i++) {
      const o = opts[i];
      const value = () => {
        const v = opts[++i];
        if (v === undefined) throw new Error(`${o} needs a value`);
        return v;
      };
      if (o === '--help' || o === '-h') {
        process.stdout.write(`${USAGE}\n`);
        return EXIT.ok;
      }
      if (o === '--scenario') names.push(value());
      else if (o === '--extensions') extensions = true;
      else if (o === '--scenario-timeout') timeoutS = Number(value());
      else if (o === '--out') out = value();
      else return fail(`unknown option ${o}`);
    }
  } catch (e) {
    return fail((e as Error).message);
  }
  if (command.length === 0) return fail('no client command after --');
  if (!(timeoutS > 0)) return fail('--scenario-timeout needs a positive number of seconds');
  const unknown = names.filter((n) => !scenarioNamed(n));
  if (unknown.length)
    return fail(`unknown scenario ${unknown.join(', ')} (known: ${SCENARIOS.map((s) => s.name).join(', ')})`);
  const chosen = names.length
    ? names.map((n) => scenarioNamed(n)).filter((s) => s !== undefined)
    : SCENARIOS.filter((s) => extensions || s.tier !== 'extension');
  const runs: ScenarioRun[] = [];
  for (const sc of chosen) {
    if (signal?.aborted) break;
    const run = await runScenario(
      sc,
      { command: command[0] as string, args: command.slice(1) },
      timeoutS * 1000,
      signal,
    );
    runs.push(run);
    process.stdout.write(`${sc.name} (${sc.tier}; client ${run.ended})\n`);
    for (const r of run.results) process.stdout.write(`  ${r.status.toUpperCase().padEnd(5)} ${r.id}  ${r.message}\n`);
  }
  await mkdir(out, { recursive: true });
  const file = join(out, 'client-auth.json');
  await writeFile(file, `${JSON.stringify({ command, runs }, null, 2)}\n`);
  process.stdout.write(`wrote ${file}\n`);
  const verdict = runs.filter((r) => r.tier === 'core' || names.length > 0).flatMap((r) => r.results);
  if (verdict.some((r) => r.status === 'fail')) return EXIT.failed;
  if (verdict.some((r) => r.status === 'error')) return EXIT.usage;
  return EXIT.ok;
}
function fail(message: string): number {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  return EXIT.usage;
}
