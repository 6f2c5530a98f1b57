import type { Report } from '../schema/generated/report.js';
import { ConfigError } from '../config/yaml-file.js';
import { OutputError } from '../report/output.js';
import { verdict } from '../report/summary.js';
import { UsageError } from './options.js';
import { TargetError } from '../target/resolve.js';
import { LaunchError } from '../transport/stdio.js';

/** The process exit codes, as documented in the README. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/**
 * 1 when a check failed that the baseline does not expect, or a check it expects to fail passed; else 2 when the
 * harness could not judge a check; else 0.
 */
export function exitCodeFor(report: Pick<Report, 'checks'>): number {
  return { pass: EXIT.ok, fail: EXIT.failed, error: EXIT.usage }[verdict(report)];
}

/** The one-line message for an error that ends the run before any report: the user's to fix, or a bug. */
export function usageOrHarness(err: Error): string {
  const usersToFix = [UsageError, ConfigError, TargetError, LaunchError, OutputError];
  if (usersToFix.some((kind) => err instanceof kind)) return err.message;
  return `internal error: ${err.stack ?? err.message}`;
}
