import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import _Ajv2020 from 'ajv/dist/2020.js';
import _addFormats from 'ajv-formats';
import { mergeReports, type MergeInput } from '../../report/merge.js';
import { formatTotals, summarize, verdict } from '../../report/summary.js';
import { visible } from '../../report/text.js';
import { writeReports } from '../../report/write.js';
import { checkFolder } from '../../report/output.js';
import type { Report } from '../../schema/generated/report.js';
import { formatErrors } from '../../schema/validators.js';
import { exitCodeFor } from '../exit-codes.js';
import { UsageError } from '../options.js';

// CommonJS modules with `exports.default`: under NodeNext the default import is the module object.
const Ajv2020 = _Ajv2020.default;
const addFormats = _addFormats.default;

/** Three levels below the package root both as src/cli/commands/*.ts and as dist/cli/commands/*.js. */
const REPORT_SCHEMA = new URL('../../../schema/report.schema.json', import.meta.url);

async function reportValidator() {
  const ajv = new Ajv2020({ allErrors: true });
  addFormats(ajv);
  ajv.addKeyword('tsType'); // an annotation for the type generator
  return ajv.compile<Report>(JSON.parse(await readFile(REPORT_SCHEMA, 'utf8')));
}

/** Read and validate report.json files; a file that is missing, not JSON or not a report is a usage error naming it. */
export async function loadReports(files: readonly string[]): Promise<MergeInput[]> {
  const validate = await reportValidator();
  return Promise.all(
    files.map(async (file) => {
      const name = visible(file);
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        throw new UsageError(
          `${name}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
        );
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (err) {
        throw new UsageError(`${name}: not JSON (${(err as Error).message.split('\n')[0]})`);
      }
      if (!validate(value))
        throw new UsageError(`${name}: not a report.json (${formatErrors(validate.errors, 1).join('; ')})`);
      return { source: file, report: value };
    }),
  );
}

export interface Rerender {
  report: Report;
  out: string;
}

/**
 * Shared by `report` and `badge`: parse `<report.json…> [--out DIR]`, validate and merge the files, and print any
 * merge conflicts to stderr. Undefined after --help.
 */
export async function loadForRerender(argv: string[], usage: string): Promise<Rerender | undefined> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { out: { type: 'string', default: 'reports' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]);
  }
  if (parsed.values.help) {
    process.stdout.write(`${usage}\n`);
    return undefined;
  }
  if (parsed.positionals.length === 0) throw new UsageError('no report.json given (see --help)');
  await checkFolder(parsed.values.out, `--out ${parsed.values.out}`);
  const { report, notes } = mergeReports(await loadReports(parsed.positionals));
  for (const note of notes) process.stderr.write(`mcp-conformance: merge: ${visible(note)}\n`);
  return { report, out: parsed.values.out };
}

/** The last lines of a re-render: the verdict with the totals, then the files written. */
export function printWritten(report: Report, paths: readonly string[]): void {
  process.stdout.write(
    `${verdict(report).toUpperCase()}  ${formatTotals(summarize(report.checks))}\nreports  ${paths.map(visible).join(', ')}\n`,
  );
}

const USAGE = [
  'Usage: mcp-conformance report <report.json>... [--out DIR]',
  '       mcp-conformance report --matrix <DIR>... [--out DIR]   (matrix.json and matrix.html of server report folders)',
  '',
  'Renders report.json, junit.xml, index.html, badge.svg, badge.json and report.sarif again from saved report.json files.',
  'Several files are merged: shards of one run are united by check id; reports of different servers are',
  "shown side by side, their check ids prefixed with the server name (one server's revisions: with the",
  'revision). --out defaults to reports.',
  'Exit codes as for a run: 0 nothing failed, 1 a check failed, 2 a bad file or a check the harness could not judge.',
].join('\n');

/** `mcp-conformance report <report.json…> [--out DIR]` */
export async function reportCommand(argv: string[]): Promise<number> {
  if (argv.includes('--matrix')) return (await import('./matrix.js')).mergeMatrixCommand(argv);
  const loaded = await loadForRerender(argv, USAGE);
  if (!loaded) return 0;
  const written = await writeReports(loaded.report, loaded.out);
  printWritten(loaded.report, Object.values(written));
  return exitCodeFor(loaded.report);
}
