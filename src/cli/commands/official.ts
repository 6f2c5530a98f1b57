// The official conformance suite's command line (`server --url URL …`, `client --command "CMD" …`): our run, then, as
// the official runner would, its results layout in --output-dir and its expected-failures verdict on scenarios
// (docs/official-command-line.md).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadOfficialBaseline, judgeScenarios, renderVerdict } from '../../baseline/official.js';
import type { ScenarioRecord } from '../../checks/kit/client-check.js';
import {
  officialCheck,
  type ScenarioResult,
  serverScenarios,
  writeOfficialResults,
} from '../../report/official-results.js';
import { OFFICIAL_SERVER_SCENARIOS } from '../../report/official-server-scenarios.js';
import type { Report } from '../../schema/generated/report.js';
import { visible } from '../../report/text.js';
import { EXIT } from '../exit-codes.js';
import { type Required, type Side, translateOfficial } from '../official.js';

export async function officialCommand(side: Side, argv: string[], signal?: AbortSignal): Promise<number> {
  const line = translateOfficial(side, argv);
  if (line.notApplicable) process.stdout.write(`not at rev  ${line.notApplicable.join(', ')} (skipped, as there)\n`);
  // Nothing asked for applies at --spec-version: the official runner skips it and exits 0.
  if (line.skipped) {
    process.stdout.write(`skipped     ${line.skipped}\n`);
    return EXIT.ok;
  }
  const baseline = line.expectedFailures ? await loadOfficialBaseline(line.expectedFailures) : undefined;
  // A file of ours (a list of {id, reason} entries) is our run's own baseline.
  const ours =
    line.expectedFailures && !baseline ? withFlag(line.argv, '--expected-failures', line.expectedFailures) : line.argv;
  const records: ScenarioRecord[] = [];
  const code =
    side === 'server'
      ? await (await import('./run.js')).runCommand(ours, signal)
      : await (await import('./client.js')).clientCommand(ours, signal, (r) => records.push(r));
  if (!line.outputDir && !baseline && !line.requirements) return code;
  const report = await readReport(line.out);
  if (!report) return code;
  const scenarios =
    side === 'server' ? serverScenarios(report.checks, report.startedAt) : await byScenario(records, report.startedAt);
  if (line.outputDir) {
    const folders = await writeOfficialResults(line.outputDir, side, scenarios);
    process.stdout.write(
      `official    ${folders.length} scenario folders with checks.json in ${visible(line.outputDir)}\n`,
    );
  }
  // Under a requirement set only its scored scenarios count, for the baseline too; the others are reported apart.
  const required = line.requirements;
  const scored = required ? scenarios.filter((s) => required.scored.includes(s.scenario)) : scenarios;
  if (required) process.stdout.write(requiredLines(required, scenarios, side));
  if (line.notHere)
    process.stdout.write(`not here    ${line.notHere.map((e) => `${e.scenario} (${e.reason})`).join(', ')}\n`);
  // A run the harness could not judge stays exit 2 whatever the official verdict.
  if (code === EXIT.usage) return code;
  if (baseline) {
    const verdict = judgeScenarios(scored, baseline[side]);
    process.stdout.write(renderVerdict(verdict, visible(baseline.file)));
    return verdict.exitCode;
  }
  return required ? (failing(scored).length > 0 ? EXIT.failed : EXIT.ok) : code;
}

/** The scenarios with a FAILURE: what fails a requirement set (a WARNING does not, as there). */
const failing = (results: readonly ScenarioResult[]) => [
  ...new Set(results.filter((r) => r.checks.some((c) => c.status === 'FAILURE')).map((r) => r.scenario)),
];

/**
 * What the requirement set scored, what ran beside it unscored (with why, and failing or not), and, on a server, our
 * areas: reported apart, never scored.
 */
export function requiredLines(required: Required, results: readonly ScenarioResult[], side: Side): string {
  const of = (names: readonly string[]) => results.filter((r) => names.includes(r.scenario));
  const failed = failing(of(required.scored));
  const unscored = required.notScored.map(
    (e) => `${e.scenario} (${e.reason}${failing(of([e.scenario])).length > 0 ? ', failing' : ''})`,
  );
  const official = new Set([...required.scored, ...required.notScored.map((e) => e.scenario)]);
  const areas =
    side === 'server'
      ? results.filter((r) => !official.has(r.scenario) && !(r.scenario in OFFICIAL_SERVER_SCENARIOS))
      : [];
  const areasFailing = failing(areas);
  return [
    `required    ${required.revision} (frozen): ${required.scored.length} scenarios scored, ${failed.length} failing${failed.length > 0 ? `: ${failed.join(', ')}` : ''}`,
    ...(unscored.length > 0 ? [`not scored  ${unscored.join(', ')}`] : []),
    ...(areas.length > 0
      ? [
          `our areas   ${new Set(areas.map((a) => a.scenario)).size} (not scored), ${areasFailing.length} failing${areasFailing.length > 0 ? `: ${areasFailing.join(', ')}` : ''}`,
        ]
      : []),
    '',
  ].join('\n');
}

/** `flag value` put before the `--` of a client line, or at the end of a server one. */
function withFlag(argv: readonly string[], flag: string, value: string): string[] {
  const at = argv.indexOf('--');
  return at < 0 ? [...argv, flag, value] : [...argv.slice(0, at), flag, value, ...argv.slice(at)];
}

/** The report our run wrote (the combined one, when it tested several revisions); none when it was stopped before. */
async function readReport(out: string): Promise<Report | undefined> {
  try {
    return JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report;
  } catch {
    return undefined;
  }
}

/**
 * A client run's checks, scenario by scenario as the official runner judges them: each scenario's record judged
 * alone by the checks that apply to it, with the client's output of that scenario.
 */
async function byScenario(records: readonly ScenarioRecord[], timestamp: string): Promise<ScenarioResult[]> {
  const { judge } = await import('../../run/client/run.js');
  const { CLIENT_CHECKS } = await import('../../checks/client-side/index.js');
  const { CLIENT_AUTH_CHECKS } = await import('../../checks/client-side/auth.js');
  const { appliesTo } = await import('../../checks/kit/client-check.js');
  return records.map((r) => {
    const defs = [...CLIENT_CHECKS, ...(r.auth ? CLIENT_AUTH_CHECKS : [])].filter((d) => appliesTo(d, r));
    const { output, spawnError } = r.exit;
    const result: ScenarioResult = {
      scenario: r.scenario.name,
      revision: r.revision,
      checks: judge(defs, [r]).map((c) => officialCheck(c, timestamp, r.revision)),
      // A client that could not start says why in its stderr.txt, as there.
      output: {
        stdout: output?.stdout ?? '',
        stderr: `${output?.stderr ?? ''}${spawnError ? `could not start the client: ${spawnError}\n` : ''}`,
      },
    };
    // The tokens, codes and secrets an authorization scenario issued read *** here too, as in our report.
    return r.auth ? r.auth.rig.log.hide(result) : result;
  });
}
