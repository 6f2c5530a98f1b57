import { explainCheck, renderExplanation } from '../../explain/explain.js';
import { parseCli, UsageError } from '../options.js';

/** `mcp-conformance explain <check-id> [--cases DIR]`: the check's requirement, what it sends, its faults and fixes. */
export async function explainCommand(argv: string[]): Promise<number> {
  const args = parseCli(argv);
  const id = args.options.target;
  if (typeof id !== 'string' || id === '')
    throw new UsageError('explain takes a check id: mcp-conformance explain <check-id>');
  process.stdout.write(renderExplanation(await explainCheck(id, args.options.cases)));
  return 0;
}
