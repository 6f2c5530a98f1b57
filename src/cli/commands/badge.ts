import { badgeFor, writeBadge } from '../../report/badge.js';
import { visible } from '../../report/text.js';
import { exitCodeFor } from '../exit-codes.js';
import { loadForRerender, printWritten } from './report.js';

const USAGE = [
  'Usage: mcp-conformance badge <report.json>... [--out DIR]',
  '',
  'Renders only badge.svg and badge.json (a shields.io endpoint) from saved report.json files, merged as by',
  '`mcp-conformance report`. --out defaults to reports. Exit codes as for a run.',
].join('\n');

/** `mcp-conformance badge <report.json…> [--out DIR]` */
export async function badgeCommand(argv: string[]): Promise<number> {
  const loaded = await loadForRerender(argv, USAGE);
  if (!loaded) return 0;
  const { label, message } = badgeFor(loaded.report);
  const { svg, json } = await writeBadge(loaded.report, loaded.out);
  process.stdout.write(`badge  ${visible(label)}: ${visible(message)}\n`);
  printWritten(loaded.report, [svg, json]);
  return exitCodeFor(loaded.report);
}
