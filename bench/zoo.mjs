#!/usr/bin/env node
// Runs the CLI against every server of the zoo (test/fixtures/servers/zoo/) and prints, per server, the wall
// time, the verdict and the peak RSS of the tool itself. Needs `npm run build`. Not part of `npm test`.
//
//   node bench/zoo.mjs
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { CLI, ROOT } from './lib.mjs';
import { ZOO } from '../test/fixtures/servers/zoo/zoo.mjs';

const HOOK = join(ROOT, 'bench/zoo-rss.mjs');

console.log('| server | wall time | verdict | failing check | tool peak RSS |');
console.log('| --- | ---: | --- | --- | ---: |');
for (const z of ZOO) {
  const work = await mkdtemp(join(tmpdir(), 'zoo-bench-'));
  const rssFile = join(work, 'rss');
  const t0 = performance.now();
  const r = await execa(process.execPath, ['--import', HOOK, CLI, '--out', work, ...z.args], {
    reject: false,
    env: { ZOO_RSS_FILE: rssFile, NO_COLOR: '1' },
  });
  const ms = performance.now() - t0;
  const report = JSON.parse(await readFile(join(work, 'report.json'), 'utf8'));
  const check = report.checks.find((c) => c.id === z.check);
  const rssMb = Number(await readFile(rssFile, 'utf8')) / 1024;
  console.log(
    `| ${z.name} | ${(ms / 1000).toFixed(1)} s | exit ${r.exitCode}${report.interrupted ? ', interrupted' : ''} | ${z.check}: ${check?.status} | ${rssMb.toFixed(0)} MB |`,
  );
  await rm(work, { recursive: true, force: true });
}
