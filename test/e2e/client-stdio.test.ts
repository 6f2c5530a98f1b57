// `mcp-conformance client -- <cmd> {server}` as a user runs it: the client starts the bridge process, which relays
// to the run; a client that signals its server first is judged so; nothing is left running, even when the client
// never ends.
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { isAlive } from '../../src/transport/process-tree.js';
import { CLI, runCli } from '../helpers.js';

const REFERENCE = fileURLToPath(new URL('../../examples/reference-client/client.mjs', import.meta.url));
const once = ['--scenario', 'initialize', '--revision', '2025-11-25'];
/** A client that starts `{server}`, initializes, then SIGTERMs it (stdin still open), or with HANG never ends. */
const SIGNALLER = `
const { spawn } = require('node:child_process');
const [cmd, ...args] = process.argv.at(-1).split(' ');
const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'] });
require('node:fs').writeFileSync(process.env.PIDFILE, String(child.pid));
if (process.env.CLIENTPID) require('node:fs').writeFileSync(process.env.CLIENTPID, String(process.pid));
child.stdout.once('data', () => { if (!process.env.HANG) child.kill('SIGTERM'); });
child.on('exit', () => { if (!process.env.HANG) process.exit(0); });
child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'signaller', version: '1' } } }) + '\\n');
setInterval(() => {}, 1000);`;
const pidfile = () => join(tmpdir(), `bridge-pid-${process.pid}-${Math.random().toString(36).slice(2)}`);

describe.concurrent('mcp-conformance client over stdio', () => {
  it('runs the reference client with {server}: the stdio checks pass, the HTTP ones skip', async () => {
    const r = await runCli(['client', ...once, '--', 'node', REFERENCE, '--stdio', '{server}']);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    const status = Object.fromEntries((r.report?.checks ?? []).map((c) => [c.id, c.status]));
    expect(status['client-side/stdio/newline-delimited']).toBe('pass');
    expect(status['client-side/stdio/shutdown-closes-stdin']).toBe('pass');
    expect(status['client-side/lifecycle/initialize-first']).toBe('pass');
    expect(status['client-side/http/accept']).toBe('skip');
  });

  it('warns on a client that SIGTERMs its server with stdin open; the bridge is gone', async () => {
    const file = pidfile();
    const r = await runCli(['client', ...once, '--', 'node', '-e', SIGNALLER, '{server}'], { PIDFILE: file });
    const shutdown = r.report?.checks.find((c) => c.id === 'client-side/stdio/shutdown-closes-stdin');
    expect(shutdown, r.stdout + r.stderr).toMatchObject({ status: 'warn' });
    expect(shutdown?.message).toContain('SIGTERM with its stdin still open');
    expect(isAlive(Number(await readFile(file, 'utf8')))).toBe(false);
  });

  it('ends a client that never ends at its budget, and its server with it', async () => {
    const file = pidfile();
    const r = await runCli(['client', ...once, '--scenario-timeout', '3', '--', 'node', '-e', SIGNALLER, '{server}'], {
      PIDFILE: file,
      HANG: '1',
    });
    expect(r.report?.client?.scenarios[0]?.exit).toBe('stopped at the end of its budget');
    expect(r.report?.checks.find((c) => c.id === 'client-side/stdio/shutdown-closes-stdin')?.status).toBe('skip');
    expect(isAlive(Number(await readFile(file, 'utf8')))).toBe(false);
  });

  it('the bridge dies with the run: the run killed outright, its server exits', async () => {
    const [file, client] = [pidfile(), pidfile()];
    const run = execa(
      process.execPath,
      [CLI, 'client', '--out', tmpdir(), ...once, '--', 'node', '-e', SIGNALLER, '{server}'],
      {
        reject: false,
        env: { PIDFILE: file, CLIENTPID: client, HANG: '1' },
      },
    );
    const read = async (f: string) => Number(await readFile(f, 'utf8').catch(() => '0'));
    // Once the client has started its server (polled; no timing is judged), the run is killed with SIGKILL.
    while ((await read(client)) === 0 || (await read(file)) === 0) await new Promise((r) => setTimeout(r, 100));
    const bridge = await read(file);
    run.kill('SIGKILL');
    await run;
    for (let i = 0; i < 100 && isAlive(bridge); i++) await new Promise((r) => setTimeout(r, 100));
    const alive = isAlive(bridge);
    process.kill(await read(client), 'SIGKILL'); // the orphaned client, which never ends by design
    expect(alive).toBe(false);
  });
});
