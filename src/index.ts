/**
 * The programmatic API: `runConformance(options)` runs the suite against a server, as the CLI does, and returns the
 * report model that every report is rendered from.
 */
import { type ConformanceOptions, resolveOptions } from './config/options.js';
import { checkFolder } from './report/output.js';
import { withRunId, writeReports } from './report/write.js';
import { combined, conformEach } from './run/conform.js';
import type { Report } from './schema/generated/report.js';

/**
 * Runs the suite: resolves the target (a path, a URL, or a command array), starts the server, runs every check (or
 * this shard's) and applies the expected-failures file when one is given. Reports are written only when `out` is set.
 * When the revision stands for several (`auto`, the default, on a server that speaks both eras, or `all`), the suite
 * runs once per revision and the report holds every run side by side, check ids prefixed with the revision.
 * Mistakes in the options, the config file, the baseline or the target reject with a ConfigError, TargetError or
 * LaunchError whose message is one line, and an `out` folder that cannot be written with an OutputError, before any
 * server starts; everything the server does is in the report.
 */
export async function runConformance(options: ConformanceOptions): Promise<Report> {
  const resolved = await resolveOptions(options);
  if (resolved.out !== undefined) await checkFolder(resolved.out, `option out ${resolved.out}`);
  const runs = await conformEach(resolved);
  const report = withRunId(combined(runs));
  if (runs[0].options.out !== undefined) await writeReports(report, runs[0].options.out);
  return report;
}

export type { ConformanceOptions } from './config/options.js';
export type { Serve, ServeStreams } from './transport/in-process.js';
export type { Config } from './schema/generated/config.js';
export type {
  CheckResult,
  Level,
  Report,
  Requirement,
  Status,
  Summary,
  TranscriptEntry,
} from './schema/generated/report.js';
export { ConfigError } from './config/yaml-file.js';
export { TargetError } from './target/resolve.js';
export { LaunchError } from './target/launch-error.js';
export { OutputError } from './report/output.js';
export { failsTheRun, isExpectedFailure, isStale } from './baseline/status.js';
export { verdict } from './report/summary.js';
