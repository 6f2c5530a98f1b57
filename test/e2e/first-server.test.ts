// The README's first server passes the suite, and each guard docs/first-server.md takes out of it brings the finding
// the page prints: the page's lines stay the suite's own.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { notPassing, ROOT, runCli } from '../helpers.js';

const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
const SERVER = /## Your first server\n[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)![1];

/** The server with `edits` made (each `[text, replacement]` must apply), in a file of its own. */
async function serverWith(edits: [string, string][]): Promise<string> {
  let source = SERVER;
  for (const [text, by] of edits) {
    expect(source, `the README's server has ${text}`).toContain(text);
    source = source.replace(text, by);
  }
  const file = join(await mkdtemp(join(tmpdir(), 'mcpc-first-')), 'server.mjs');
  await writeFile(file, source);
  return file;
}

/** The checks a run of the server failed or warned, as `id: status`. */
async function findings(edits: [string, string][]): Promise<string[]> {
  const r = await runCli(['--seed', '1', await serverWith(edits)]);
  return notPassing(r.report).map((line) => line.split(' ').slice(0, 2).join(' '));
}

const GUARD = "if (msg?.jsonrpc !== '2.0' || typeof msg.method !== 'string' || (id !== undefined && !idOk))";

describe.concurrent("the README's first server", () => {
  it('passes with no failure and no warning', async () => {
    expect(await findings([])).toEqual([]);
  });

  it.each<[string, [string, string][], string[]]>([
    // Each probe's answer is judged by the check that sent it alone (the frame rules set them aside): the malformed
    // lines' by base/robustness/malformed-frames, the ping with id null's by base/request/null-id.
    [
      'takes every id',
      [['const idOk = typeof id', 'const idOk = true || typeof id']],
      ['base/robustness/malformed-frames: fail', 'base/request/null-id: fail'],
    ],
    [
      'echoes the id it rejected',
      [['return send({ id: idOk ? id : null', 'return send({ id: id ?? null']],
      ['base/robustness/malformed-frames: fail'],
    ],
    [
      'crashes on a line holding null',
      [
        ['const id = msg?.id;', 'const id = msg.id;'],
        ["if (msg?.jsonrpc !== '2.0'", "if (msg.jsonrpc !== '2.0'"],
      ],
      ['base/robustness/malformed-frames: fail'],
    ],
    [
      'answers an invalid request -32601',
      [[GUARD, 'if (id !== undefined && !idOk)']],
      ['base/robustness/invalid-request: warn'],
    ],
    [
      'ignores cursors',
      [["if (method === 'tools/list' && params?.cursor !== undefined)", 'if (false)']],
      ['pagination/invalid-cursor: warn'],
    ],
    [
      'logs to stdout',
      [['createInterface({', "console.log('first: ready');\ncreateInterface({"]],
      ['transport/stdio/stdout-only-messages: fail'],
    ],
  ])('reports what docs/first-server.md prints when it %s', async (_, edits, expected) => {
    expect(await findings(edits)).toEqual(expected);
  });
});
