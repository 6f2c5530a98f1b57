// `mcp-conformance client [options] -- <client command…>`: the suite serves MCP, starts the client once per scenario,
// judges what it sent, and writes the same reports as a server run (docs/clients.md).
import { parseArgs } from 'node:util';
import { applyBaseline, loadBaseline } from '../../baseline/baseline.js';
import { DEFAULTS } from '../../config/defaults.js';
import { renderConsole } from '../../report/console.js';
import { checkFolder } from '../../report/output.js';
import { writeReports } from '../../report/write.js';
import { SCHEMA_REVISIONS } from '../../schema/revisions.js';
import type { ScenarioRecord } from '../../checks/kit/client-check.js';
import { EXIT, exitCodeFor } from '../exit-codes.js';
import { parsedOr, secondsOr, UsageError } from '../options.js';

export const CLIENT_USAGE = `Usage: mcp-conformance client [options] -- <client command…>

The client is started once per scenario with the test server's URL as its last argument (or in place of {url}),
and MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_CONTEXT, MCP_CONFORMANCE_PROTOCOL_VERSION in its environment.
A client that starts its server over stdio gets {server}: one argument, the command line of a stdio server wired
back to the run (the run is then over stdio; docs/clients.md).
The official suite's line, \`client --command "CMD" --suite all -o results\`, runs too (docs/official-command-line.md).

Options:
  --revision REV          auto (every revision each scenario has; default) or one of ${SCHEMA_REVISIONS.join(', ')}
  --scenario NAME         Run only this scenario (repeatable); auth/… names an authorization scenario
                          (mcp-conformance list --client lists them)
  --auth                  Also run the authorization scenarios (core and draft; docs/clients-auth.md)
  --auth-extensions       With --auth: the extension tier too
  --only GLOB             Only checks whose id matches (repeatable), e.g. 'client-side/http/*'
  --skip GLOB             Skip checks whose id matches (repeatable)
  --timeout S             Seconds the test server waits for the client's answer to its requests (default 5)
  --scenario-timeout S    Seconds one scenario's client may run before it is stopped (default 10)
  --max-starts N          Client processes that may run at once (default: one a core; 1: one after another)
  --out DIR               Folder for the reports (default ${DEFAULTS.out})
  --seed N                The run's seed
  --expected-failures F   Baseline of expected failures
  --strict                SHOULD violations fail instead of warn
  -h, --help              Show this help`;

const count = (v: string, flag: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`--${flag} takes a whole number of at least 1, not ${JSON.stringify(v)}`);
  return n;
};

/** `onScenario` sees each scenario's record as it ends (the official results layout judges them one by one). */
export async function clientCommand(
  argv: string[],
  signal?: AbortSignal,
  onScenario?: (record: ScenarioRecord) => void,
): Promise<number> {
  const dash = argv.indexOf('--');
  const own = dash < 0 ? argv : argv.slice(0, dash);
  const command = dash < 0 ? [] : argv.slice(dash + 1);
  const { values } = parsedOr(() => parse(own), CLIENT_USAGE);
  if (values.help) {
    process.stdout.write(`${CLIENT_USAGE}\n`);
    return EXIT.ok;
  }
  if (command.length === 0) throw new UsageError(`no client command: put it after --\n\n${CLIENT_USAGE}`);
  const revision = values.revision ?? 'auto';
  if (revision !== 'auto' && revision !== 'all' && !(SCHEMA_REVISIONS as readonly string[]).includes(revision))
    throw new UsageError(
      `--revision takes auto or one of ${SCHEMA_REVISIONS.join(', ')}, not ${JSON.stringify(revision)}`,
    );
  const out = values.out ?? DEFAULTS.out;
  await checkFolder(out, `reports folder ${out}`);
  const baseline = values['expected-failures'] ? await loadBaseline(values['expected-failures']) : undefined;
  const { runClientConformance } = await import('../../run/client/run.js');
  let report;
  try {
    report = await runClientConformance({
      client: { command: command[0], args: command.slice(1) },
      revision,
      scenarios: values.scenario,
      only: values.only,
      skip: values.skip,
      timeoutMs: secondsOr(values.timeout, 'timeout', 5) * 1000,
      scenarioMs: secondsOr(values['scenario-timeout'], 'scenario-timeout', 10) * 1000,
      seed: values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed),
      strict: values.strict,
      ...(values['max-starts'] !== undefined && { maxClients: count(values['max-starts'], 'max-starts') }),
      ...(values.auth && { auth: values['auth-extensions'] ? ('all' as const) : ('core' as const) }),
      signal,
      onScenario,
    });
  } catch (err) {
    const message = (err as Error).message;
    if (message.startsWith('unknown scenario') || / does not run (over|at) /.test(message))
      throw new UsageError(message);
    throw err;
  }
  if (baseline)
    report = {
      ...report,
      checks: applyBaseline(report.checks, baseline, { revision: report.client?.protocolVersion ?? revision }),
    };
  const written = await writeReports(report, out);
  process.stdout.write(
    renderConsole(report, {
      color: process.stdout.isTTY === true,
      paths: Object.values(written).filter((p): p is string => typeof p === 'string'),
    }),
  );
  return exitCodeFor(report);
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: false,
    options: {
      revision: { type: 'string' },
      scenario: { type: 'string', multiple: true },
      only: { type: 'string', multiple: true },
      skip: { type: 'string', multiple: true },
      timeout: { type: 'string' },
      'scenario-timeout': { type: 'string' },
      'max-starts': { type: 'string' },
      out: { type: 'string' },
      seed: { type: 'string' },
      'expected-failures': { type: 'string' },
      strict: { type: 'boolean' },
      auth: { type: 'boolean' },
      'auth-extensions': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
