#!/usr/bin/env node
// A pass-through stdio server for the same-work row of the bench: runs `command…` as the server, passes every byte
// both ways unchanged, and writes what the client sent into DIR/<start time>-<pid>.json: each line, with how many
// responses the server had given before it (so a replay keeps the same requests in flight, not the same timing).
//   node bench/record-server.mjs DIR -- command [args…]
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, dashes, command, ...args] = process.argv.slice(2);
if (!dir || dashes !== '--' || !command) {
  process.stderr.write('usage: record-server.mjs DIR -- command [args…]\n');
  process.exit(2);
}
const startedAt = performance.timeOrigin + performance.now();
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
const lines = [];
let responses = 0;
let pendingIn = '';
let pendingOut = '';

/** Whole lines of `chunk` after what `pending` held; the rest stays pending. */
const split = (pending, chunk, each) => {
  const parts = (pending + chunk).split('\n');
  for (const line of parts.slice(0, -1)) each(line);
  return parts.at(-1);
};

process.stdin.on('data', (chunk) => {
  pendingIn = split(pendingIn, chunk.toString('utf8'), (line) => lines.push({ after: responses, line }));
  child.stdin.write(chunk);
});
process.stdin.on('end', () => child.stdin.end());
child.stdin.on('error', () => {}); // the server may exit first
child.stdout.on('data', (chunk) => {
  pendingOut = split(pendingOut, chunk.toString('utf8'), (line) => {
    try {
      const msg = JSON.parse(line);
      if (msg && typeof msg === 'object' && 'id' in msg && !('method' in msg)) responses++;
    } catch {
      // not JSON: passed on, not counted
    }
  });
  process.stdout.write(chunk);
});
const save = () =>
  writeFileSync(
    join(dir, `${Math.round(startedAt * 1000)}-${process.pid}.json`),
    JSON.stringify({ startedAt, lines, responses, unterminated: pendingIn }),
  );
child.on('exit', (code, signal) => {
  save();
  process.exit(code ?? (signal ? 1 : 0));
});
for (const sig of /** @type {const} */ (['SIGTERM', 'SIGINT'])) process.on(sig, () => child.kill(sig));
