import type { Summary } from '../schema/generated/report.js';
import { UsageError } from './options.js';
import { TargetError } from '../target/resolve.js';
import { LaunchError } from '../transport/stdio.js';

/** The process exit codes, as documented in the README. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** 1 when a check failed; 2 when none failed but the harness could not judge one; 0 otherwise. */
export function exitCodeFor(summary: Summary): number {
  if (summary.fail > 0) return EXIT.failed;
  return summary.error > 0 ? EXIT.usage : EXIT.ok;
}

/** The one-line message for an error that ends the run before any report: the user's to fix, or a bug. */
export function usageOrHarness(err: Error): string {
  if (err instanceof UsageError || err instanceof TargetError || err instanceof LaunchError) return err.message;
  return `internal error: ${err.stack ?? err.message}`;
}
