import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULTS } from '../../config/defaults.js';
import { loadServersFile } from '../../config/servers-file.js';
import { buildMatrix, entryName, MatrixInputError } from '../../report/matrix/build.js';
import { writeMatrix } from '../../report/matrix/write.js';
import { checkFolder } from '../../report/output.js';
import { formatTotals } from '../../report/summary.js';
import { duration, visible } from '../../report/text.js';
import { runServers, type ServerEvent } from '../../run/matrix.js';
import type { Progress } from '../../run/progress.js';
import type { Matrix } from '../../schema/generated/matrix.js';
import { EXIT } from '../exit-codes.js';
import { UsageError } from '../options.js';
import { LiveLines, progressText } from '../progress-line.js';

const USAGE = [
  'Usage: mcp-conformance matrix <servers.yaml> [options]',
  '',
  'Runs the suite on every server of the servers file (schema/matrix-servers.schema.json), several at a time, each',
  'as its own run with its usual reports in OUT/<server>/, then writes OUT/matrix.json and OUT/matrix.html: checks',
  "by area against server × revision, with each server's verdict and what differs from the majority. An entry with",
  '`client: [command, args…]` is a client, run as `mcp-conformance client -- <command…>` would run it: one column;',
  'one with `authorization: ISSUER` is an authorization server, run as `mcp-conformance authorization --url ISSUER`',
  'would run it (clientId, clientSecret, resource, scope, port: its options): one column.',
  '',
  'Options:',
  "  --out DIR            Folder for the matrix and the servers' folders (default: reports)",
  '  --jobs N             Servers run at once (default: the number of cores)',
  '  --budget SECONDS     Time each server may take (default: 300); past it its run is stopped, its partial reports kept',
  '  --server NAME        Run only this server of the file (repeatable), e.g. one per CI job; merge with report --matrix',
  "  --seed N             Seed of every run's generated checks",
  '  --runs N             Values each generated check tries',
  '  --timeout SECONDS    Time to wait for each response, unless the server names its own',
  '  --strict             SHOULD violations fail instead of warn',
  '  --max-starts N       Server processes each run may start at once (1: one at a time)',
  '  -h, --help           Show this help',
  '',
  'Exit codes: 0 every entry passed, 1 one failed, 2 usage error, or an entry errored or left no report.',
].join('\n');

function parse<T extends Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }>>(
  argv: string[],
  options: T,
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]);
  }
}

function number(value: string | undefined, flag: string, integer: boolean, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || (integer && !Number.isSafeInteger(n)) || (!integer && n <= 0)) {
    throw new UsageError(
      `--${flag} takes ${integer ? `an integer of at least ${min}` : 'a positive number of seconds'}, not ${JSON.stringify(value)}`,
    );
  }
  return n;
}

/** `mcp-conformance matrix <servers.yaml> [options]`; aborting `signal` stops every run, whose partial reports are kept. */
export async function matrixCommand(argv: string[], signal?: AbortSignal): Promise<number> {
  const { values: v, positionals } = parse(argv, {
    out: { type: 'string' },
    jobs: { type: 'string' },
    budget: { type: 'string' },
    server: { type: 'string', multiple: true },
    seed: { type: 'string' },
    runs: { type: 'string' },
    timeout: { type: 'string' },
    strict: { type: 'boolean' },
    'max-starts': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (v.help) {
    process.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  if (positionals.length !== 1)
    throw new UsageError(`one servers file expected, got ${positionals.length} (see matrix --help)`);
  const out = v.out ?? DEFAULTS.out;
  const jobs = number(v.jobs, 'jobs', true, 1) ?? availableParallelism();
  const budgetMs = (number(v.budget, 'budget', false, 0) ?? DEFAULTS.budget) * 1000;
  let servers = await loadServersFile(positionals[0]);
  if (v.server) {
    const unknown = v.server.filter((name) => !servers.some((s) => s.name === name));
    if (unknown.length > 0)
      throw new UsageError(`--server ${visible(unknown[0])}: no such server in ${visible(positionals[0])}`);
    servers = servers.filter((s) => v.server!.includes(s.name));
  }
  await checkFolder(out, `--out ${out}`);
  const show = matrixProgress(process.stdout, servers.length);
  try {
    await runServers(servers, {
      out,
      jobs,
      budgetMs,
      seed: number(v.seed, 'seed', true, 0),
      runs: number(v.runs, 'runs', true, 1),
      timeout: number(v.timeout, 'timeout', false, 0),
      strict: v.strict,
      maxStarts: number(v['max-starts'], 'max-starts', true, 1),
      signal,
      onEvent: show.onEvent,
    });
  } finally {
    show.stop();
  }
  const matrix = await buildMatrix(
    servers.map((s) => join(out, s.folder)),
    out,
  );
  return finish(matrix, out, signal);
}

/** `mcp-conformance report --matrix DIR… [--out DIR]`: the matrix of report folders made elsewhere. */
export async function mergeMatrixCommand(argv: string[]): Promise<number> {
  const { values: v, positionals } = parse(argv, {
    matrix: { type: 'boolean' },
    out: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (v.help) {
    process.stdout.write(
      "Usage: mcp-conformance report --matrix <DIR>... [--out DIR]\n\nBuilds matrix.json and matrix.html from server (client, authorization server) report folders (a matrix run's\nOUT/<server>/, or a run's --out), one column per server and revision (a client's or authorization server's run is one\ncolumn), in the order given. --out defaults to reports.\n",
    );
    return EXIT.ok;
  }
  if (positionals.length === 0) throw new UsageError('report --matrix: no report folder given (see --help)');
  const out = v.out ?? DEFAULTS.out;
  await checkFolder(out, `--out ${out}`);
  let matrix: Matrix;
  try {
    matrix = await buildMatrix(
      positionals.map((p) => resolve(p)),
      resolve(out),
    );
  } catch (err) {
    if (err instanceof MatrixInputError) throw new UsageError(err.message);
    throw err;
  }
  return finish(matrix, out);
}

/** Writes the matrix, prints one line per server and the files, and returns the exit code. */
async function finish(matrix: Matrix, out: string, signal?: AbortSignal): Promise<number> {
  const written = await writeMatrix(matrix, out);
  const width = Math.min(30, Math.max(...matrix.servers.map((s) => s.name.length)));
  const lines = matrix.servers.map((s) => {
    const revisions = matrix.columns
      .filter((c) => matrix.servers[c.server] === s && c.revision !== '-')
      .map((c) => c.revision)
      .join(', ');
    const time = s.durationMs !== undefined ? `  ${duration(s.durationMs)}` : '';
    const who = s.verdict === 'no-report' ? '' : `  ${visible(entryName(matrix, s))}`;
    return `${visible(s.name).padEnd(width)}  ${s.verdict.toUpperCase().padEnd(9)} ${s.verdict === 'no-report' ? visible(s.reason ?? '') : `${formatTotals(s.summary)}${revisions ? `  (${revisions})` : ''}`}${time}${who}\n`;
  });
  process.stdout.write(`${lines.join('')}matrix  ${visible(written.json)}, ${visible(written.html)}\n`);
  if (signal?.aborted) return typeof signal.reason === 'number' ? signal.reason : 130;
  const verdicts = new Set(matrix.servers.map((s) => s.verdict));
  return verdicts.has('fail') ? EXIT.failed : verdicts.has('error') || verdicts.has('no-report') ? EXIT.usage : EXIT.ok;
}

/** On a terminal, a live line per running server under a line for the whole matrix; elsewhere, nothing until the end. */
function matrixProgress(stdout: NodeJS.WriteStream, total: number) {
  if (!stdout.isTTY) return { onEvent: undefined, stop: () => {} };
  const t0 = performance.now();
  const running = new Map<string, { since: number; progress?: Progress }>();
  let done = 0;
  let failing = 0;
  const live = new LiveLines(stdout, () => [
    `matrix: ${done}/${total} servers done · ${failing} not passing · ${Math.floor((performance.now() - t0) / 1000)} s`,
    ...[...running].map(
      ([name, r]) =>
        `  ${name}  ${r.progress ? progressText(r.progress, performance.now() - r.since) : `starting · ${Math.floor((performance.now() - r.since) / 1000)} s`}`,
    ),
  ]);
  const onEvent = (e: ServerEvent) => {
    if (e.kind === 'start') running.set(e.server.name, { since: performance.now() });
    else if (e.kind === 'progress') running.get(e.server.name)!.progress = e.progress;
    else {
      running.delete(e.server.name);
      done++;
      if (e.outcome.exitCode !== 0) failing++;
    }
    live.changed();
  };
  return { onEvent, stop: () => live.stop() };
}
