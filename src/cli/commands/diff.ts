import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { diffReports, renderDiffMarkdown, renderDiffText } from '../../report/diff.js';
import { mergeReports } from '../../report/merge.js';
import { visible } from '../../report/text.js';
import type { Report } from '../../schema/generated/report.js';
import { EXIT } from '../exit-codes.js';
import { UsageError } from '../options.js';
import { loadReports } from './report.js';

const FORMATS = ['console', 'json', 'markdown'] as const;

const USAGE = [
  'Usage: mcp-conformance diff <OLD> <NEW> [--format console|json|markdown]',
  '',
  'What changed from one run to another: new failures, fixed checks, other status changes, checks added or gone,',
  "each with its requirement. OLD and NEW are report.json files or report folders: a folder's report.json, or when",
  'it has none, the report.json files of its subfolders merged (the shards of a run, or one folder per revision).',
  '--format: console (default), json, or markdown (for a step summary or a pull-request comment).',
  'Exit codes: 0 nothing got worse, 1 something did (a new failure, or a status moved down), 2 a bad file.',
].join('\n');

/** `mcp-conformance diff <OLD> <NEW> [--format F]` */
export async function diffCommand(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { format: { type: 'string', default: 'console' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]);
  }
  if (parsed.values.help) {
    process.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  const format = parsed.values.format as (typeof FORMATS)[number];
  if (!FORMATS.includes(format))
    throw new UsageError(`--format takes ${FORMATS.join(', ')}, not ${JSON.stringify(format)}`);
  if (parsed.positionals.length !== 2)
    throw new UsageError(`diff takes two reports, OLD and NEW, not ${parsed.positionals.length} (see --help)`);
  const [old, now] = await Promise.all(
    parsed.positionals.map(async (source) => ({ source, report: await reportAt(source) })),
  );
  const diff = diffReports(old, now);
  const text =
    format === 'json'
      ? `${JSON.stringify(diff, null, 2)}\n`
      : format === 'markdown'
        ? renderDiffMarkdown(diff)
        : renderDiffText(diff);
  process.stdout.write(text);
  return diff.worse ? EXIT.failed : EXIT.ok;
}

/** The report a file or folder holds, shards and revisions merged as `report` merges them. */
async function reportAt(path: string): Promise<Report> {
  const files = await reportFiles(path);
  if (files.length === 0) throw new UsageError(`${visible(path)}: no report.json in it or in its subfolders`);
  const { report, notes } = mergeReports(await loadReports(files));
  for (const note of notes) process.stderr.write(`mcp-conformance: merge: ${visible(note)}\n`);
  return report;
}

/** A file as it is; a folder's report.json, or else those of its subfolders (each by the same rule). */
async function reportFiles(path: string): Promise<string[]> {
  const kind = await stat(path).catch(() => undefined);
  if (!kind?.isDirectory()) return [path]; // a missing file is named by loadReports
  const own = join(path, 'report.json');
  if (
    await stat(own).then(
      (s) => s.isFile(),
      () => false,
    )
  )
    return [own];
  const entries = (await readdir(path, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return (await Promise.all(entries.map((name) => reportFiles(join(path, name)))))
    .flat()
    .filter((file) => file.endsWith('report.json'));
}
