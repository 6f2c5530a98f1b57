import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Session, SessionClosed } from '../../src/session/session.js';
import { HEAD_ENTRIES, TAIL_ENTRIES, Transcript } from '../../src/transcript.js';
import { LaunchError } from '../../src/target/launch-error.js';
import type { LaunchPlan } from '../../src/target/launch-plan.js';
import { isAlive, untilAsleep } from '../../src/transport/process-tree.js';
import { ASSEMBLING } from '../../src/transport/line-budget.js';
import { startStdio, killAllServers, type StdioOptions, type StdioTransport } from '../../src/transport/stdio.js';
import type { InboundLine } from '../../src/transport/transport.js';

let dir: string;
const started: StdioTransport[] = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'mcp-stdio-'));
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((t) => t.close()));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Writes a tiny CommonJS server and returns a plan that runs it with this node. */
function server(name: string, code: string, env: Record<string, string> = {}): LaunchPlan {
  const file = path.join(dir, `${name}.cjs`);
  writeFileSync(file, code);
  return { description: `${name}.cjs`, command: process.execPath, args: [file], cwd: dir, env };
}

async function start(
  plan: LaunchPlan,
  opts?: StdioOptions,
): Promise<{ t: StdioTransport; lines: InboundLine[]; transcript: Transcript }> {
  const transcript = new Transcript();
  const t = await startStdio(plan, transcript, opts);
  started.push(t);
  const lines: InboundLine[] = [];
  t.onLine((line) => lines.push(line));
  return { t, lines, transcript };
}

async function waitFor(cond: () => boolean, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for condition');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Echoes each stdin line back; exits when stdin ends. */
const ECHO = `
let buf = '';
process.stdin.on('data', (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf('\\n')) >= 0) {
    const line = buf.slice(0, i);
    buf = buf.slice(i + 1);
    process.stdout.write(JSON.stringify({ echo: line, env: process.env.MCP_TEST_VAR ?? null }) + '\\n');
  }
});
process.stdin.on('end', () => process.exit(0));
`;

describe('stdout framing', () => {
  it('joins a message written in two parts and splits two messages written at once', async () => {
    const { lines } = await start(
      server(
        'split',
        `process.stdout.write('{"a":');
         setTimeout(() => process.stdout.write('1}\\n{"b":2}\\n{"c":'), 60);
         setTimeout(() => process.stdout.write('3}\\n'), 120);
         process.stdin.resume();`,
      ),
    );
    await waitFor(() => lines.length >= 3);
    expect(lines.map((l) => l.json)).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }]);
    expect(lines.every((l) => l.problem === undefined)).toBe(true);
    expect(lines[0]!.entry).toMatchObject({ dir: 'recv', text: '{"a":1}', bytes: 7 });
  });

  it('reports CRLF, invalid UTF-8, blank lines and non-JSON, and keeps multibyte characters split across writes', async () => {
    const { lines } = await start(
      server(
        'problems',
        `const fs = require('fs');
         fs.writeSync(1, '{"x":1}\\r\\n');
         fs.writeSync(1, Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d, 0x0a]));
         fs.writeSync(1, '\\n');
         fs.writeSync(1, 'hello\\n');
         const e = Buffer.from('{"s":"é"}\\n');
         fs.writeSync(1, e.subarray(0, 7));
         setTimeout(() => fs.writeSync(1, e.subarray(7)), 50);
         process.stdin.resume();`,
      ),
    );
    await waitFor(() => lines.length >= 5);
    const [crlf, bad, blank, text, multi] = lines;
    expect(crlf).toMatchObject({ json: { x: 1 }, problem: 'CRLF line ending' });
    expect(bad!.problem).toBe('not UTF-8');
    expect(bad!.json).toBeUndefined();
    expect(bad!.entry.text).toContain('\uFFFD');
    expect(blank!.problem).toBe('blank line');
    expect(text!.problem).toMatch(/^not JSON: /);
    expect(multi).toMatchObject({ json: { s: 'é' } });
    expect(multi!.problem).toBeUndefined();
  });

  it('emits a partial last line and reports the exit as a crash', async () => {
    const { t, lines } = await start(
      server('partial', `process.stdout.write('{"p":1}'); setTimeout(() => process.exit(3), 30);`),
    );
    const exit = await new Promise((resolve) => t.onExit(resolve));
    expect(exit).toEqual({ code: 3, signal: null, how: 'crashed' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ json: { p: 1 }, problem: 'partial line at end of stream' });
    expect(await t.close()).toEqual({ code: 3, signal: null, how: 'crashed' });
  });

  it('does not keep an over-long line in memory, and carries on after it', async () => {
    const { lines } = await start(
      server(
        'long',
        `const fs = require('fs');
         const chunk = 'a'.repeat(100000);
         for (let i = 0; i < 10; i++) fs.writeSync(1, chunk);
         fs.writeSync(1, '\\n{"ok":1}\\n');
         process.stdin.resume();`,
      ),
      { maxLineBytes: 1000 },
    );
    await waitFor(() => lines.length >= 2);
    expect(lines[0]!.problem).toBe('line exceeds 1000 bytes');
    expect(lines[0]!.entry.bytes).toBe(1_000_000);
    expect(lines[0]!.entry.truncated).toBe(true);
    expect(lines[0]!.entry.text.length).toBeLessThanOrEqual(4096);
    expect(lines[1]).toMatchObject({ json: { ok: 1 } });
  });

  it('several sessions receiving large lines at once get them whole, in turn, and the shared budget ends empty', async () => {
    const size = 13 * 1024 * 1024; // two at once pass the 16 MiB budget
    const big = server(
      'big',
      `process.stdout.write(JSON.stringify({ big: 'x'.repeat(${size}) }) + '\\n{"after":1}\\n'); process.stdin.resume();`,
    );
    const runs = await Promise.all([1, 2, 3].map(() => start(big)));
    for (const { lines } of runs) await waitFor(() => lines.length >= 2, 60_000);
    const frame = Buffer.from(JSON.stringify({ big: 'x'.repeat(size) }));
    for (const { lines } of runs) {
      expect(lines[0]!.problem).toBeUndefined();
      expect((lines[0]!.json as { big: string }).big.length).toBe(size);
      expect(lines[0]!.entry).toMatchObject({
        bytes: frame.length,
        truncated: true,
        sha256: createHash('sha256').update(frame).digest('hex').slice(0, 16),
      });
      expect(lines[1]!.json).toEqual({ after: 1 });
    }
    expect(ASSEMBLING.total).toBe(0);
  }, 90_000);

  it('delivers lines written before the first listener was attached', async () => {
    const transcript = new Transcript();
    const t = await startStdio(
      server('early', `process.stdout.write('{"early":1}\\n'); process.stdin.resume();`),
      transcript,
    );
    started.push(t);
    await waitFor(() => transcript.entries.some((e) => e.dir === 'recv'));
    const lines: InboundLine[] = [];
    t.onLine((l) => lines.push(l));
    await waitFor(() => lines.length === 1);
    expect(lines[0]!.json).toEqual({ early: 1 });
  });
});

describe('stdin and stderr', () => {
  it('drains 5 MB of stderr written before stdin is read, and still answers', async () => {
    const { t, lines, transcript } = await start(
      server(
        'noisy',
        `const fs = require('fs');
         const line = 'x'.repeat(1023) + '\\n';
         const block = line.repeat(64);
         for (let i = 0; i < 80; i++) fs.writeSync(2, block);
         fs.writeSync(2, 'last stderr line\\n');
         ${ECHO}`,
      ),
    );
    const sent = t.send('{"ping":1}');
    expect(sent).toMatchObject({ dir: 'send', text: '{"ping":1}' });
    await waitFor(() => lines.length === 1, 5000);
    expect(lines[0]!.json).toMatchObject({ echo: '{"ping":1}' });
    expect(t.stderrTail(1)).toBe('last stderr line');
    expect(t.stderrTail(3).split('\n')).toHaveLength(3);
    // The transcript keeps a bounded amount of stderr.
    const stderrBytes = transcript.entries.filter((e) => e.dir === 'stderr').reduce((n, e) => n + e.bytes, 0);
    expect(stderrBytes).toBeLessThan(1.1 * 1024 * 1024);
    const exit = await t.close();
    expect(exit.how).toBe('stdin-eof');
    expect(transcript.entries.some((e) => e.dir === 'event' && /more stderr lines not recorded/.test(e.text))).toBe(
      true,
    );
  });

  it('passes env on top of the inherited environment, and sendRaw writes bytes as given', async () => {
    const { t, lines, transcript } = await start(server('env', ECHO, { MCP_TEST_VAR: 'hello' }));
    t.sendRaw('raw one\nraw');
    t.sendRaw(' two\n');
    await waitFor(() => lines.length === 2);
    expect(lines.map((l) => l.json)).toEqual([
      { echo: 'raw one', env: 'hello' },
      { echo: 'raw two', env: 'hello' },
    ]);
    expect(transcript.entries.filter((e) => e.dir === 'send').map((e) => e.text)).toEqual(['raw one\nraw', ' two\n']);
  });

  it('ignores writes after the server died, and survives EPIPE', async () => {
    const { t, transcript } = await start(
      server(
        'closes-stdin',
        `require('fs').closeSync(0); process.stdout.write('{"ready":1}\\n'); setTimeout(() => process.exit(0), 300);`,
      ),
    );
    await waitFor(() => transcript.entries.some((e) => e.dir === 'recv'));
    for (let i = 0; i < 20; i++) t.send(JSON.stringify({ n: i, pad: 'y'.repeat(10000) }));
    await waitFor(() => t.exited !== undefined);
    const after = t.send('{"late":1}');
    expect(after.dir).toBe('event');
    expect(after.text).toMatch(/write ignored \(server exited\)/);
    expect(transcript.entries.some((e) => e.dir === 'event' && /stdin error: EPIPE/.test(e.text))).toBe(true);
  });

  it('records spawn and exit events', async () => {
    const { t, transcript } = await start(server('events', ECHO));
    await t.close();
    const events = transcript.entries.filter((e) => e.dir === 'event').map((e) => e.text);
    expect(events[0]).toMatch(/^spawn .*events\.cjs \(pid \d+\)$/);
    expect(events.at(-1)).toBe('exit code 0 signal none');
  });
});

describe('a server that goes away', () => {
  /** Reads one line, then closes stdout and lives on; deaf to stdin closing, so only SIGTERM ends it. */
  const MUTE = `process.stdin.once('data', () => require('fs').closeSync(1)); process.stdin.resume(); setInterval(() => {}, 1000);`;

  it('closing stdout while running: pending and later requests fail at once, saying so, and close() still stops it', async () => {
    const { t, transcript } = await start(server('mute', MUTE));
    // A timeout far beyond the test's: only the closed stdout can end these requests.
    const session = new Session(t, transcript, 600_000);
    const lost: string[][] = [];
    session.onLost((why, pending) => lost.push([why, ...pending.map((e) => e.method)]));
    const pending = session.request('first');
    await expect(pending).rejects.toThrow(
      'server closed the connection before answering first: server closed its stdout (the process is still running)',
    );
    await expect(session.request('later')).rejects.toThrow(/before answering later: server closed its stdout/);
    expect(session.alive).toBe(false);
    expect(lost).toEqual([['server closed its stdout (the process is still running)', 'first']]);
    const pid = t.pid!;
    expect(isAlive(pid)).toBe(true);
    expect((await t.close()).how).toBe('sigterm');
    expect(isAlive(pid)).toBe(false);
  });

  it('exiting: pending requests fail with the exit and the stderr tail, not as a closed stdout', async () => {
    const { t, transcript } = await start(
      server(
        'dies',
        `process.stdin.once('data', () => { process.stderr.write('fatal: out of cheese\\n'); process.exit(7); });`,
      ),
    );
    const session = new Session(t, transcript, 600_000);
    const lost: string[] = [];
    session.onLost((why) => lost.push(why));
    const err = (await session.request('ping').catch((e: unknown) => e)) as SessionClosed;
    expect(err).toBeInstanceOf(SessionClosed);
    expect(err.message).toBe(
      'server closed the connection before answering ping: process exited (code 7, signal null)',
    );
    expect(err.stderr).toBe('fatal: out of cheese');
    expect(lost).toEqual(['process exited (code 7, signal null)']);
  });

  it('being closed by the client is no loss', async () => {
    const { t, transcript } = await start(server('polite', ECHO));
    const session = new Session(t, transcript, 600_000);
    const lost: string[] = [];
    session.onLost((why) => lost.push(why));
    expect((await session.close()).how).toBe('stdin-eof');
    expect(lost).toEqual([]);
    expect(session.alive).toBe(false);
  });
});

describe('recording a session', () => {
  it('keeps only the stray responses, not the answers its requests already got', async () => {
    // Answers each request, then sends a response to an id never asked for.
    const { t, transcript } = await start(
      server(
        'stray',
        `let buf = '';
         process.stdin.on('data', (d) => {
           buf += d;
           let i;
           while ((i = buf.indexOf('\\n')) >= 0) {
             const m = JSON.parse(buf.slice(0, i));
             buf = buf.slice(i + 1);
             process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { big: 'x'.repeat(1000) } }) + '\\n');
             process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: 'never-sent', result: {} }) + '\\n');
           }
         });`,
      ),
    );
    const session = new Session(t, transcript, 600_000);
    const recording = session.record();
    const reply = await session.request('ping');
    await waitFor(() => transcript.entries.filter((e) => e.dir === 'recv').length >= 2);
    const seen = recording.stop();
    expect(reply.message.result).toEqual({ big: 'x'.repeat(1000) });
    expect(seen.map((e) => e.message)).toEqual([{ jsonrpc: '2.0', id: 'never-sent', result: {} }]);
  });
});

describe('the transcript of a flood', () => {
  it('keeps the first and the last frames, every event, and counts the rest', () => {
    const transcript = new Transcript();
    transcript.add('event', 'spawn');
    for (let i = 0; i < 5000; i++) transcript.add('recv', `frame ${i}`);
    transcript.add('event', 'exit');
    const kept = transcript.entries;
    const frames = kept.filter((e) => e.dir === 'recv').map((e) => e.text);
    expect(frames).toEqual([
      ...Array.from({ length: HEAD_ENTRIES }, (_, i) => `frame ${i}`),
      ...Array.from({ length: TAIL_ENTRIES }, (_, i) => `frame ${5000 - TAIL_ENTRIES + i}`),
    ]);
    expect(kept.filter((e) => e.dir === 'event').map((e) => e.text)).toEqual([
      'spawn',
      `transcript full: ${5000 - HEAD_ENTRIES - TAIL_ENTRIES} frames after the first ${HEAD_ENTRIES} and before the last ${TAIL_ENTRIES} were counted, not kept`,
      'exit',
    ]);
    expect(kept.map((e) => e.seq)).toEqual([...kept.map((e) => e.seq)].sort((a, b) => a - b));
    expect(transcript.slice(transcript.length - 3).map((e) => e.text)).toEqual(['frame 4998', 'frame 4999', 'exit']);
  });
});

describe('shutdown', () => {
  it('stdin EOF when the server exits on its own', async () => {
    const { t } = await start(server('eof', ECHO));
    expect(await t.close()).toEqual({ code: 0, signal: null, how: 'stdin-eof' });
    expect(await t.close()).toEqual({ code: 0, signal: null, how: 'stdin-eof' });
    expect(t.exited?.how).toBe('stdin-eof');
  });

  it('SIGTERM when the server ignores stdin closing', async () => {
    const { t } = await start(server('ignores-eof', `process.stdin.resume(); setInterval(() => {}, 1000);`), {
      graceMs: 150,
    });
    expect(await t.close()).toEqual({ code: null, signal: 'SIGTERM', how: 'sigterm' });
  });

  it('SIGKILL when the server ignores SIGTERM too', async () => {
    const { t, lines } = await start(
      server(
        'ignores-term',
        `process.on('SIGTERM', () => {}); process.stdin.resume(); setInterval(() => {}, 1000); process.stdout.write('{"ready":1}\\n');`,
      ),
      { graceMs: 150, termMs: 150 },
    );
    await waitFor(() => lines.length === 1);
    expect(await t.close()).toEqual({ code: null, signal: 'SIGKILL', how: 'sigkill' });
  });

  it('crashed when the server died before close()', async () => {
    const { t } = await start(server('dies', `setTimeout(() => process.exit(7), 20);`));
    const exits: unknown[] = [];
    t.onExit((e) => exits.push(e));
    await waitFor(() => exits.length === 1);
    expect(exits[0]).toEqual({ code: 7, signal: null, how: 'crashed' });
    expect(await t.close()).toEqual({ code: 7, signal: null, how: 'crashed' });
    // A listener added after the exit still hears about it.
    const late = await new Promise((resolve) => t.onExit(resolve));
    expect(late).toEqual({ code: 7, signal: null, how: 'crashed' });
  });

  it('kills the whole tree: a grandchild and a setsid great-grandchild', async () => {
    const pidFile = path.join(dir, 'tree-pids.json');
    const grandchild = path.join(dir, 'grandchild.cjs');
    const great = path.join(dir, 'great.cjs');
    writeFileSync(great, `setInterval(() => {}, 1000);`);
    writeFileSync(
      grandchild,
      `const { spawn } = require('child_process');
       const g = spawn(process.execPath, [${JSON.stringify(great)}], { stdio: 'ignore', detached: true });
       require('fs').writeFileSync(${JSON.stringify(pidFile)}, JSON.stringify({ grandchild: process.pid, great: g.pid }));
       setInterval(() => {}, 1000);`,
    );
    const { t } = await start(
      server(
        'tree',
        `require('child_process').spawn(process.execPath, [${JSON.stringify(grandchild)}], { stdio: 'ignore' });
         ${ECHO}`,
      ),
    );
    let pids: { grandchild: number; great: number } | undefined;
    await waitFor(() => {
      try {
        pids = JSON.parse(readFileSync(pidFile, 'utf8'));
        return true;
      } catch {
        return false;
      }
    });
    expect(isAlive(pids!.grandchild)).toBe(true);
    expect(isAlive(pids!.great)).toBe(true);
    expect((await t.close()).how).toBe('stdin-eof');
    await waitFor(() => !isAlive(pids!.grandchild) && !isAlive(pids!.great), 2000);
  });

  it('killAllServers() kills servers that were never closed', async () => {
    const { t } = await start(server('forgotten', `process.stdin.resume(); setInterval(() => {}, 1000);`));
    killAllServers();
    await waitFor(() => t.exited !== undefined);
    expect(t.exited).toMatchObject({ signal: 'SIGKILL', how: 'crashed' });
  });
});

describe('launch errors', () => {
  it('a missing command gives a LaunchError naming it', async () => {
    const transcript = new Transcript();
    const err = await startStdio(
      { description: 'nope', command: 'mcp-no-such-command-xyz', args: ['--stdio'], cwd: dir, env: {} },
      transcript,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LaunchError);
    expect((err as LaunchError).message).toBe('cannot start mcp-no-such-command-xyz: not found (ENOENT)');
    expect((err as LaunchError).code).toBe('ENOENT');
    expect(transcript.entries.at(-1)?.text).toMatch(/^spawn failed: mcp-no-such-command-xyz --stdio/);
  });

  it('a file that is not executable gives EACCES', async () => {
    const file = path.join(dir, 'not-executable');
    writeFileSync(file, '#!/bin/sh\necho hi\n');
    chmodSync(file, 0o644);
    const err = await startStdio(
      { description: file, command: file, args: [], cwd: dir, env: {} },
      new Transcript(),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LaunchError);
    expect((err as LaunchError).code).toBe('EACCES');
    expect((err as LaunchError).message).toContain(file);
  });

  it('a missing working directory is named as such', async () => {
    const err = await startStdio(
      { description: 'x', command: process.execPath, args: [], cwd: path.join(dir, 'missing-dir'), env: {} },
      new Transcript(),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LaunchError);
    expect((err as LaunchError).message).toMatch(/working directory not found/);
  });
});

describe('an answer on its way', () => {
  // Answers "whole" at once; any other request with a line whose first part comes at once and whose end comes `END_MS`
  // later (never when 0).
  const slowLine = () =>
    server(
      'slow-line',
      `let buf = '';
process.stdin.on('data', (d) => {
  buf += d;
  for (let nl; (nl = buf.indexOf('\\n')) >= 0; buf = buf.slice(nl + 1)) {
    const { id, method } = JSON.parse(buf.slice(0, nl));
    if (method === 'whole') {
      process.stdout.write('{"jsonrpc":"2.0","id":' + id + ',"result":{}}\\n');
      continue;
    }
    process.stdout.write('{"jsonrpc":"2.0","id":' + id + ',"result":{"pad":"' + 'x'.repeat(100000));
    if (Number(process.env.END_MS) > 0) setTimeout(() => process.stdout.write('"}}\\n'), Number(process.env.END_MS));
  }
});
process.stdin.on('end', () => process.exit(0));
`,
    );

  it('waits one more --timeout for a line whose first bytes came before the timeout', async () => {
    const { t, transcript } = await start({ ...slowLine(), env: { END_MS: '1500' } });
    const session = new Session(t, transcript, 1000);
    await session.request('whole', {}, { timeoutMs: 30_000 }); // heard from: no start-up allowance
    const reply = await session.request('ping', {}, { timeoutMs: 1000 });
    expect(reply.message.result).toEqual({ pad: 'x'.repeat(100000) });
  });

  it('then times out all the same when the line never ends, naming the time it waited', async () => {
    const { t, transcript } = await start({ ...slowLine(), env: { END_MS: '0' } });
    const session = new Session(t, transcript, 500);
    await session.request('whole', {}, { timeoutMs: 30_000 });
    await expect(session.request('ping', {}, { timeoutMs: 500 })).rejects.toThrow('no response to ping within 1000 ms');
  });
});

describe.runIf(process.platform === 'linux')('waiting for a process to fall asleep (untilAsleep)', () => {
  it('ends for a process that waits for input, and not for one that keeps the CPU busy', async () => {
    const waiting = spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'ignore'] });
    const busy = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    try {
      // Both bounds far off: only the process's state can end the first wait, and nothing ends the second.
      await untilAsleep(waiting.pid!, 100, 600_000);
      const stillBusy = await Promise.race([
        untilAsleep(busy.pid!, 100, 600_000).then(() => 'ended'),
        sleep(1500).then(() => 'waiting'),
      ]);
      expect(stillBusy).toBe('waiting');
    } finally {
      waiting.kill('SIGKILL');
      busy.kill('SIGKILL');
    }
  });

  it('ends at its upper bound whatever the process does, and at once for a process that is gone', async () => {
    const busy = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    try {
      await untilAsleep(busy.pid!, 100, 300);
    } finally {
      busy.kill('SIGKILL');
    }
    await new Promise((resolve) => busy.once('exit', resolve));
    await untilAsleep(busy.pid!, 100, 600_000);
  });
});
