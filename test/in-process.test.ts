// Servers in the caller's process (`serve`): the same checks as over stdio, and a broken server never breaks the caller.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { TargetError, runConformance, type Serve } from '../src/index.js';
import { NEEDS_PROCESS } from '../src/checks/kit/check.js';
import { Transcript } from '../src/transcript.js';
import { startServe } from '../src/transport/stdio.js';
import type { InboundLine } from '../src/transport/transport.js';
import { createServer, serveStreams } from '../examples/reference-server/mcp.mjs';
import { createFaultyServer } from './fixtures/servers/faulty-server.mjs';
import { ROOT } from './helpers.js';

const reference: Serve = (streams) => serveStreams(createServer(), streams);
/** Answers every line with `reply(line)`, as a server that knows no MCP would. */
const echoing =
  (reply: (line: string) => string): Serve =>
  ({ input, output }) => {
    let buffer = '';
    input.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        output.write(reply(buffer.slice(0, nl)));
        buffer = buffer.slice(nl + 1);
      }
    });
  };
/** Timers, sockets and other handles of this process (what would keep it alive), counted by kind. */
function resources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}
const QUICK = {
  timeout: 1,
  revision: '2025-11-25' as const,
  only: ['lifecycle/**', 'ping/**', 'base/method-not-found', 'transport/stdio/**'],
};

describe('runConformance({ serve })', () => {
  it('tests the reference server in-process: every check passes, the process checks skip, the target is in-process', async () => {
    const report = await runConformance({ serve: reference, revision: '2025-11-25', seed: 1 });
    expect(report.target).toEqual({ description: 'in-process' });
    expect(
      report.checks.filter((c) => !['pass', 'skip'].includes(c.status)).map((c) => `${c.id}: ${c.status} ${c.message}`),
    ).toEqual([]);
    const processChecks = report.checks.filter((c) => c.message === NEEDS_PROCESS).map((c) => c.id);
    expect(processChecks.sort()).toEqual(['lifecycle/process/alive', 'lifecycle/shutdown/stdin-close']);
    // The stdio wire's own rules still judge every line.
    expect(report.checks.find((c) => c.id === 'transport/stdio/stdout-only-messages')?.status).toBe('pass');
  });

  it('fails the checks of a server that writes garbage, as over stdio', async () => {
    const report = await runConformance({ ...QUICK, serve: echoing(() => 'Server starting...\n') });
    expect(report.checks.find((c) => c.id === 'transport/stdio/stdout-only-messages')).toMatchObject({
      status: 'fail',
    });
    expect(report.summary.pass).toBe(0);
  });

  it('reports a server that throws (at once, later, or on a line it reads) or never answers, and returns', async () => {
    const before = resources();
    const broken: [string, Serve][] = [
      [
        'throws',
        () => {
          throw new Error('no database');
        },
      ],
      ['rejects', async () => Promise.reject(new Error('no database'))],
      [
        'throws on its input',
        ({ input }) =>
          void input.on('data', () => {
            throw new TypeError('line.trim is not a function');
          }),
      ],
      ['never answers', () => {}],
      ['ends its output', ({ output }) => void output.end()],
    ];
    for (const [what, serve] of broken) {
      const report = await runConformance({ ...QUICK, serve });
      const handshake = report.checks[0];
      expect(handshake.status, `${what}: ${handshake.message}`).toMatch(/^(fail|error)$/);
      expect(report.summary.pass, what).toBe(0);
      if (what.startsWith('throw') || what === 'rejects') {
        expect(handshake.message, what).toMatch(/the server crashed: .*(no database|line\.trim is not a function)/);
        expect(JSON.stringify(handshake.transcript), what).toMatch(/server crashed: .*(no database|line\.trim)/);
      }
      if (what === 'ends its output')
        expect(handshake.message).toContain('server ended its output while the session was open');
    }
    // Nothing of those runs keeps this process alive: no kind of handle is left more often than before them.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const after = resources();
    expect([...after].filter(([kind, n]) => n > (before.get(kind) ?? 0))).toEqual([]);
  });

  it('calls serve once per session, each with streams of its own', async () => {
    const seen: { input: Readable; output: Writable }[] = [];
    await runConformance({ ...QUICK, serve: (streams) => (seen.push(streams), reference(streams)) });
    expect(seen.length).toBeGreaterThan(1);
    expect(new Set(seen.map((s) => s.input)).size).toBe(seen.length);
    expect(seen.every((s) => s.input.destroyed && s.output.destroyed)).toBe(true);
  });

  it('replays a failed generated check with the options of runConformance, there being no command line', async () => {
    const check = 'tools/call/invalid-arguments';
    const report = await runConformance({
      serve: createFaultyServer(['invalid-arguments-32603']),
      revision: '2025-11-25',
      seed: 3,
      runs: 10,
      only: [check],
    });
    const result = report.checks.find((c) => c.id === check);
    expect(result?.status).toBe('fail');
    expect(result?.message).toContain(
      `replay: runConformance({ serve, seed: 3, runs: 10, revision: '2025-11-25', only: ["${check}"] })`,
    );
  });

  it('takes no target, command, folder or environment beside serve', async () => {
    await expect(runConformance({ serve: reference, target: 'server.js' })).rejects.toThrow(
      new TargetError('serve runs the server in this process: give no target with it'),
    );
    await expect(runConformance({ serve: reference, env: { A: '1' }, cwd: '/' })).rejects.toThrow(
      new TargetError('serve runs the server in this process: give no cwd, env with it'),
    );
    await expect(runConformance({ serve: 'server.js' as never })).rejects.toThrow(
      new TargetError('serve must be a function ({ input, output }) => …, not string'),
    );
  });
});

describe('the in-process transport', () => {
  it('hands the server its input a turn later, as a pipe would, and reads what it writes line by line', async () => {
    const transcript = new Transcript();
    const order: string[] = [];
    const t = startServe(
      ({ input, output }) => {
        input.on('data', (chunk: Buffer) => {
          order.push(`server read ${chunk.toString().trim()}`);
          output.write('{"jsonrpc":"2.0","id":1,"result":{}}\n{"partial":');
          output.write('true}\n');
        });
      },
      { description: 'in-process', command: '', args: [], cwd: ROOT, env: {} },
      transcript,
    );
    const lines: InboundLine[] = [];
    const two = new Promise<void>((resolve) => t.onLine((line) => lines.push(line) === 2 && resolve()));
    t.send('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    order.push('sent');
    await two;
    expect(order).toEqual(['sent', 'server read {"jsonrpc":"2.0","id":1,"method":"ping"}']);
    expect(lines.map((l) => l.json)).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }, { partial: true }]);
    expect(t.kind).toBe('in-process');
    expect(await t.close()).toEqual({ code: null, signal: null, how: 'closed' });
  });
});

describe('closing an in-process session', () => {
  it('hands over a line sent just before, then the end of the input, and only then destroys the streams', async () => {
    const seen: string[] = [];
    const t = startServe(
      ({ input }) => {
        input.on('data', (chunk: Buffer) => seen.push(chunk.toString().trim()));
        input.on('end', () => seen.push('end'));
      },
      { description: 'in-process', command: '', args: [], cwd: ROOT, env: {} },
      new Transcript(),
    );
    t.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    await t.close();
    expect(seen).toEqual(['{"jsonrpc":"2.0","method":"notifications/initialized"}', 'end']);
  });
});

describe('docs/api.md', () => {
  it('shows the in-process vitest file that test/sdk-in-process.test.ts runs', () => {
    const readme = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');
    const file = readFileSync(join(ROOT, 'test/sdk-in-process.test.ts'), 'utf8');
    expect(readme).toContain('```ts\n' + file + '```');
  });
});
