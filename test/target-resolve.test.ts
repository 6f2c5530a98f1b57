import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Transcript } from '../src/transcript.js';
import { resolveTarget, TargetError } from '../src/target/resolve.js';
import type { LaunchPlan } from '../src/target/launch-plan.js';
import { startStdio } from '../src/transport/stdio.js';
import type { InboundLine } from '../src/transport/transport.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'mcp-resolve-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function write(rel: string, text: string, mode?: number): string {
  const file = path.join(dir, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  if (mode !== undefined) chmodSync(file, mode);
  return file;
}

async function rejection(p: Promise<unknown>): Promise<TargetError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TargetError);
  return err as TargetError;
}

/** Runs the plan, sends one line and returns the first line the server answers. */
async function roundTrip(plan: LaunchPlan): Promise<InboundLine> {
  const t = await startStdio(plan, new Transcript(), { graceMs: 1000 });
  try {
    const line = new Promise<InboundLine>((resolve) => t.onLine(resolve));
    t.send('{"hi":1}');
    return await line;
  } finally {
    await t.close();
  }
}

describe('resolveTarget', () => {
  it('a directory with a package.json bin (string, single entry, or named like the package)', async () => {
    write('bin-string/package.json', JSON.stringify({ name: 'a', bin: './cli.js' }));
    write('bin-string/cli.js', '');
    expect(await resolveTarget({ target: 'bin-string', cwd: dir })).toEqual({
      description: 'bin-string',
      cliTarget: `--cwd ${dir} bin-string`,
      command: process.execPath,
      args: [path.join(dir, 'bin-string/cli.js')],
      cwd: dir,
      env: {},
    });

    write('bin-one/package.json', JSON.stringify({ name: 'b', bin: { whatever: 'dist/s.mjs' }, main: 'lib.js' }));
    write('bin-one/dist/s.mjs', '');
    expect((await resolveTarget({ target: 'bin-one', cwd: dir })).args).toEqual([path.join(dir, 'bin-one/dist/s.mjs')]);

    write('bin-named/package.json', JSON.stringify({ name: '@scope/srv', bin: { other: 'o.js', srv: 's.cjs' } }));
    write('bin-named/o.js', '');
    write('bin-named/s.cjs', '');
    expect((await resolveTarget({ target: 'bin-named', cwd: dir })).args).toEqual([path.join(dir, 'bin-named/s.cjs')]);
  });

  it('a directory with main, then the index/server fallbacks', async () => {
    write('with-main/package.json', JSON.stringify({ name: 'm', main: 'lib/server' }));
    write('with-main/lib/server.js', '');
    expect((await resolveTarget({ target: path.join(dir, 'with-main') })).args).toEqual([
      path.join(dir, 'with-main/lib/server.js'),
    ]);

    write('no-pkg/server.js', '');
    expect((await resolveTarget({ target: 'no-pkg', cwd: dir })).args).toEqual([path.join(dir, 'no-pkg/server.js')]);

    mkdirSync(path.join(dir, 'empty-dir'));
    const err = await rejection(resolveTarget({ target: 'empty-dir', cwd: dir }));
    expect(err.message).toMatch(/^empty-dir is a directory without a package.json bin or main/);

    write('broken-bin/package.json', JSON.stringify({ bin: 'dist/cli.js' }));
    expect((await rejection(resolveTarget({ target: 'broken-bin', cwd: dir }))).message).toMatch(
      /dist\/cli\.js, which does not exist/,
    );
  });

  it('a .mjs file runs with this node, and works', async () => {
    write(
      'echo.mjs',
      `process.stdin.once('data', (d) => { process.stdout.write(JSON.stringify({ got: String(d).trim() }) + '\\n'); });`,
    );
    const plan = await resolveTarget({ target: './echo.mjs', cwd: dir, env: { X: '1' } });
    expect(plan).toEqual({
      description: './echo.mjs',
      cliTarget: `--cwd ${dir} --env X=1 ./echo.mjs`,
      command: process.execPath,
      args: [path.join(dir, 'echo.mjs')],
      cwd: dir,
      env: { X: '1' },
    });
    expect((await roundTrip(plan)).json).toEqual({ got: '{"hi":1}' });
  });

  it('a .ts file runs through tsx (this project has it), and works', async () => {
    write(
      'echo.ts',
      `const tag: string = 'ts';
       process.stdin.once('data', (d: Buffer) => { process.stdout.write(JSON.stringify({ tag, got: String(d).trim() }) + '\\n'); });`,
    );
    const plan = await resolveTarget({ target: 'echo.ts', cwd: dir });
    expect(plan.command).toBe(process.execPath);
    expect(plan.args[0]).toMatch(/tsx[/\\]dist[/\\]cli\.mjs$/);
    expect(plan.args[1]).toBe(path.join(dir, 'echo.ts'));
    expect((await roundTrip(plan)).json).toEqual({ tag: 'ts', got: '{"hi":1}' });
  });

  it("prefers the target project's own tsx", async () => {
    write('proj/node_modules/tsx/package.json', JSON.stringify({ name: 'tsx', bin: './dist/cli.mjs' }));
    const cli = write('proj/node_modules/tsx/dist/cli.mjs', '');
    write('proj/src/server.mts', '');
    const plan = await resolveTarget({ target: 'proj/src/server.mts', cwd: dir });
    expect(plan.args).toEqual([cli, path.join(dir, 'proj/src/server.mts')]);
  });

  it('a .py file runs with python3', async () => {
    write('srv.py', 'import sys\nprint(sys.stdin.readline().strip(), flush=True)\n');
    const plan = await resolveTarget({ target: 'srv.py', cwd: dir });
    expect(path.basename(plan.command)).toMatch(/^python3?(\.exe)?$/);
    expect(plan.args).toEqual([path.join(dir, 'srv.py')]);

    expect((await roundTrip(plan)).json).toEqual({ hi: 1 });

    const err = await rejection(withPath('', () => resolveTarget({ target: 'srv.py', cwd: dir })));
    expect(err.message).toBe('srv.py is a Python file, but python3 is not on PATH');
  });

  it('an executable with a shebang runs directly; a non-executable unknown file is refused', async () => {
    const exe = write('run-me', '#!/bin/sh\nread line\necho "{\\"sh\\":1}"\n', 0o755);
    const plan = await resolveTarget({ target: 'run-me', cwd: dir });
    expect(plan).toMatchObject({ command: exe, args: [] });
    expect((await roundTrip(plan)).json).toEqual({ sh: 1 });

    const nodeScript = write('node-script', '#!/usr/bin/env node\n', 0o644);
    expect(await resolveTarget({ target: 'node-script', cwd: dir })).toMatchObject({
      command: process.execPath,
      args: [nodeScript],
    });

    write('data.txt', 'hello', 0o644);
    expect((await rejection(resolveTarget({ target: 'data.txt', cwd: dir }))).message).toMatch(
      /^do not know how to run data\.txt/,
    );
  });

  it('a missing path is "target not found" with the absolute path', async () => {
    const err = await rejection(resolveTarget({ target: 'nope/server.js', cwd: dir }));
    expect(err.message).toBe(`target not found: ${path.join(dir, 'nope/server.js')}`);
    const cmd = await rejection(resolveTarget({ target: 'node server.js', cwd: dir }));
    expect(cmd.message).toContain('to run a command, put it after --');
  });

  it('the command form is taken as is', async () => {
    expect(
      await resolveTarget({ command: ['npx', '-y', 'some server', '--stdio'], cwd: dir, env: { K: 'v' } }),
    ).toEqual({
      description: 'npx -y "some server" --stdio',
      cliTarget: `--cwd ${dir} --env K=v -- npx -y "some server" --stdio`,
      command: 'npx',
      args: ['-y', 'some server', '--stdio'],
      cwd: dir,
      env: { K: 'v' },
    });
    expect((await rejection(resolveTarget({ command: [] }))).message).toBe('no command given after --');
  });

  it('names the target again as the command line would, {port} unfilled, for the replay line', async () => {
    const started = await resolveTarget({
      command: ['node', 'server.js', '--port={port}'],
      httpUrl: 'http://127.0.0.1:{port}/mcp?a=1',
      port: 'auto',
    });
    expect(started.cliTarget).toBe(
      '--http-url "http://127.0.0.1:{port}/mcp?a=1" --port auto -- node server.js "--port={port}"',
    );
    expect((await resolveTarget({ target: 'http://127.0.0.1:1/mcp' })).cliTarget).toBe('http://127.0.0.1:1/mcp');
    // With what starts or reaches the server as this run did (a header's value is a secret, which reports show as ***).
    const reached = await resolveTarget({
      target: 'http://127.0.0.1:1/sse',
      transport: 'sse',
      headers: { Authorization: 'Bearer x' },
      env: { A: 'b c' },
    });
    expect(reached.cliTarget).toBe(
      '--env "A=b c" --transport sse --header "Authorization: Bearer x" http://127.0.0.1:1/sse',
    );
  });
});

async function withPath<T>(value: string, fn: () => Promise<T>): Promise<T> {
  const saved = process.env.PATH;
  process.env.PATH = value;
  try {
    return await fn();
  } finally {
    process.env.PATH = saved;
  }
}
