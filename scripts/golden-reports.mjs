#!/usr/bin/env node
// Runs the built CLI against known servers at a fixed seed and compares each report's fingerprint with the one recorded
// in test/fixtures/golden/ (`--record` records them instead). A restructuring of the code must leave them equal,
// check for check. `--only NAME` runs one of them, `--cli DIR` another checkout's build. The reference servers' runs
// are also a test (golden-reports.test.ts). `npm run golden` builds first, then runs this with its arguments.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { fingerprint } from './report-fingerprint.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const node = process.execPath;
const REFERENCE = join(ROOT, 'examples/reference-server');
const FAULTY = join(ROOT, 'test/fixtures/servers/faulty-server.mjs');
const NO_CAPABILITIES = 'tools,resources,prompts,completions,logging,tasks';

/** Name → the CLI's arguments after `--out DIR --seed 5`. */
export const GOLDEN = {
  'reference-stdio': [REFERENCE],
  'reference-dual-era': ['--', node, join(REFERENCE, 'server.mjs'), '--revision', 'all'],
  'reference-http': [
    '--http-url',
    'http://127.0.0.1:{port}/mcp',
    '--port',
    'auto',
    '--',
    node,
    join(REFERENCE, 'http.mjs'),
  ],
  'server-everything': [
    '--',
    node,
    join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'),
    'stdio',
  ],
  // Every capability left out: each check that requires one skips with the reason.
  'no-capabilities': ['--env', `MCP_DISABLE=${NO_CAPABILITIES}`, FAULTY],
  'no-capabilities-dual-era': ['--env', `MCP_DISABLE=${NO_CAPABILITIES}`, '--env', 'MCP_REVISION=all', FAULTY],
};

export const goldenFile = (name) => join(ROOT, 'test/fixtures/golden', `${name}.json`);

/** The one command that builds and re-records every golden report: what a failing comparison tells the reader to run. */
export const RECORD_COMMAND = 'npm run golden -- --record';

/** The fingerprint of a run of `name` now, as the recorded files hold it (text, one line per field); `root`: whose build runs. */
export async function fingerprintNow(name, root = ROOT) {
  const out = mkdtempSync(join(tmpdir(), 'mcpc-golden-'));
  try {
    await promisify(execFile)(node, [join(root, 'dist/cli/main.js'), '--out', out, '--seed', '5', ...GOLDEN[name]], {
      env: { ...process.env, GITHUB_ACTIONS: '', NO_COLOR: '1' },
      maxBuffer: 64 << 20,
    });
  } catch (err) {
    if (/** @type {{ code?: unknown }} */ (err).code !== 1) throw err; // 1: a check failed, which a recorded report may hold
  }
  try {
    return `${JSON.stringify(fingerprint(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))), null, 1)}\n`;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const usage = `usage: npm run golden [-- --record] [--only NAME] [--cli DIR]\n  NAME: ${Object.keys(GOLDEN).join(', ')}\n`;
  // --cli DIR: run the build of another checkout (e.g. an older commit's, to record what it reported).
  let values;
  try {
    ({ values } = parseArgs({
      options: { record: { type: 'boolean' }, only: { type: 'string' }, cli: { type: 'string' } },
    }));
  } catch (err) {
    process.stderr.write(`${/** @type {Error} */ (err).message}\n${usage}`);
    process.exit(2);
  }
  if (values.only !== undefined && !(values.only in GOLDEN)) {
    process.stderr.write(`unknown golden report: ${values.only}\n${usage}`);
    process.exit(2);
  }
  let differ = 0;
  for (const name of values.only ? [values.only] : Object.keys(GOLDEN)) {
    const now = await fingerprintNow(name, values.cli);
    // A report added to GOLDEN has no file until its first --record.
    const recorded = existsSync(goldenFile(name)) ? readFileSync(goldenFile(name), 'utf8') : undefined;
    if (values.record) {
      writeFileSync(goldenFile(name), now);
      console.log(`${name}: ${now === recorded ? 'same' : 'recorded'}`);
    } else if (now !== recorded) {
      differ++;
      writeFileSync(join(tmpdir(), `golden-${name}.json`), now);
      console.log(`${name}: differs (now in ${join(tmpdir(), `golden-${name}.json`)})`);
    } else console.log(`${name}: same`);
  }
  if (differ > 0)
    console.log(
      `${differ} differ: if the change is meant, \`${RECORD_COMMAND}\` re-records every golden report (review with git diff)`,
    );
  process.exitCode = differ > 0 ? 1 : 0;
}
