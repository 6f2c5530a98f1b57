// `mcp-conformance authorization --url ISSUER`: judges an authorization server as MCP clients need it, and writes the
// same reports as the other sides, and with -o/--output-dir the official suite's results layout (the official
// authorization line's flags are ours: authorization-line.ts).
import { baselineAdvice } from '../../baseline/advice.js';
import { applyBaseline, loadBaseline } from '../../baseline/baseline.js';
import { DEFAULTS } from '../../config/defaults.js';
import { renderConsole } from '../../report/console.js';
import { OFFICIAL_AUTHZ_SCENARIOS } from '../../report/official-authz-scenarios.js';
import { authzScenarios, writeOfficialResults } from '../../report/official-results.js';
import { checkFolder } from '../../report/output.js';
import { visible } from '../../report/text.js';
import { writeReports } from '../../report/write.js';
import { authorizationLine, OFFICIAL_PORT } from '../authorization-line.js';
import { EXIT, exitCodeFor } from '../exit-codes.js';

export const AUTHORIZATION_USAGE = `Usage: mcp-conformance authorization --url ISSUER [options]
       mcp-conformance authorization --file SETTINGS.json [options]

Fetches the authorization server's metadata where MCP clients look for it, registers a client (where it offers
dynamic registration), and runs the authorization code flow with PKCE S256 and a resource as MCP clients do, then
the requests it must refuse. The end-user step: BROWSER (a command that opens a URL) when set, or the suite follows
the authorization endpoint's redirects (a test setup that approves at once); a login page is a skip, not a hang.
The official suite's authorization line runs as it is (its flags are these).

Options:
  --url ISSUER            The issuer identifier (required, unless --file names it)
  --file SETTINGS.json    The official settings file: url, scenario, clientId, clientSecret, resource, port (no
                          other key); a flag given overrides its value
  --scenario NAME         Only the checks that judge an official scenario's rules:
                          ${Object.keys(OFFICIAL_AUTHZ_SCENARIOS).join(', ')}
  --client-id ID          A pre-registered client (its redirect_uri: http://127.0.0.1:PORT/callback, see --port)
  --client-secret SECRET  Its secret
  -p, --port N            The redirect_uri's loopback port (default ${OFFICIAL_PORT} with --client-id, as the official
                          suite's: a free port could never match a registered redirect_uri; else a free one)
  --resource URL          The resource (RFC 8707) to ask tokens for: the MCP server's URL (default ISSUER/mcp)
  --scope SCOPES          The scope to ask for
  --spec-version REV      Only the checks whose rule exists at that revision (draft: 2026-07-28)
  --timeout S             Seconds to wait for each answer (default 10)
  --browser-timeout S     Seconds the BROWSER step may take (default 120)
  --only GLOB             Only checks whose id matches (repeatable)
  --skip GLOB             Skip checks whose id matches (repeatable)
  --out DIR               Folder for the reports (default: --output-dir, else ${DEFAULTS.out})
  -o, --output-dir DIR    Also the official results layout there: authorization-server-<scenario>-<time>/checks.json
  --expected-failures F   Baseline of expected failures (entries with on: are for server runs, not this one; the
                          official suite's file has no authorization list)
  --strict                SHOULD violations fail instead of warn
  --verbose               Every check's finding on the console, passes included
  -h, --help              Show this help`;

export async function authorizationCommand(argv: string[]): Promise<number> {
  const line = await authorizationLine(argv, AUTHORIZATION_USAGE);
  if (!line) {
    process.stdout.write(`${AUTHORIZATION_USAGE}\n`);
    return EXIT.ok;
  }
  const { out, outputDir } = line;
  await checkFolder(out, `reports folder ${out}`);
  if (outputDir && outputDir !== out) await checkFolder(outputDir, `output folder ${outputDir}`);
  const baseline = line.expectedFailures ? await loadBaseline(line.expectedFailures) : undefined;
  const { runAuthorizationConformance } = await import('../../run/authz/run.js');
  let report = await runAuthorizationConformance({ ...line.run, browser: process.env.BROWSER || undefined });
  // An authorization server has no revision or transport of its own: an entry limited to runs (on:) is not for it.
  if (baseline) report = { ...report, checks: applyBaseline(report.checks, baseline, { revision: '' }) };
  const written = await writeReports(report, out);
  const folders = outputDir
    ? await writeOfficialResults(outputDir, 'authorization', authzScenarios(report.checks, report.startedAt))
    : [];
  process.stdout.write(
    renderConsole(report, {
      color: process.stdout.isTTY === true,
      verbose: line.verbose,
      paths: Object.values(written).filter((p): p is string => typeof p === 'string'),
    }) +
      (outputDir ? `official    ${folders.length} scenario folders with checks.json in ${visible(outputDir)}\n` : '') +
      (baseline ? `\n${baselineAdvice(report, baseline, false)}` : ''),
  );
  return exitCodeFor(report);
}
