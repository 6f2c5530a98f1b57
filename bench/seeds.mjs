// Runs the CLI on server-everything over many consecutive seeds and prints, per seed, the ids of the checks that
// failed or warned (not part of `npm test`): a verdict must not depend on the seed.
//
//   node bench/seeds.mjs [stdio|http] [first seed] [count] [-- extra CLI options]
//
// stdio starts `server-everything stdio` for each seed; http starts `server-everything streamableHttp` on a free
// port for each seed (--http-url … --port auto). Reports go to a temp folder per seed.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, EVERYTHING } from './lib.mjs';

const dash = process.argv.indexOf('--');
const [mode = 'stdio', first = '1', count = '20'] = process.argv.slice(2, dash < 0 ? undefined : dash);
const extra = dash < 0 ? [] : process.argv.slice(dash + 1);
const target =
  mode === 'http'
    ? [
        '--http-url',
        'http://127.0.0.1:{port}/mcp',
        '--port',
        'auto',
        '--',
        process.execPath,
        EVERYTHING,
        'streamableHttp',
      ]
    : ['--', process.execPath, EVERYTHING, 'stdio'];

const tally = new Map();
for (let seed = Number(first); seed < Number(first) + Number(count); seed++) {
  const out = await mkdtemp(join(tmpdir(), 'mcpc-seeds-'));
  const started = Date.now();
  const exit = await new Promise((resolve) =>
    execFile(
      process.execPath,
      [CLI, '--seed', String(seed), '--out', out, ...extra, ...target],
      { env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '' }, maxBuffer: 64 << 20 },
      (err) => resolve(err?.code ?? 0),
    ),
  );
  const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8').catch(() => '{"checks":[]}'));
  const ids = (status) => report.checks.filter((c) => c.status === status).map((c) => c.id);
  const line = ['fail', 'error', 'warn'].map((s) => `${s} [${ids(s).join(', ')}]`).join(' ');
  console.log(`seed ${seed} (exit ${exit}, ${((Date.now() - started) / 1000).toFixed(1)} s): ${line}`);
  for (const c of report.checks)
    if (c.status !== 'pass' && c.status !== 'skip')
      tally.set(`${c.status} ${c.id}`, (tally.get(`${c.status} ${c.id}`) ?? 0) + 1);
  await rm(out, { recursive: true, force: true });
}
console.log(`\nover ${count} seeds:`);
for (const [k, n] of [...tally].sort()) console.log(`  ${n}× ${k}`);
