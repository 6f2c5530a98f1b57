// `mcp-conformance authorization --url ISSUER`: judges an authorization server as MCP clients need it, and writes the
// same reports as the other sides.
import { parseArgs } from 'node:util';
import { baselineAdvice } from '../../baseline/advice.js';
import { applyBaseline, loadBaseline } from '../../baseline/baseline.js';
import { DEFAULTS } from '../../config/defaults.js';
import { renderConsole } from '../../report/console.js';
import { checkFolder } from '../../report/output.js';
import { writeReports } from '../../report/write.js';
import { EXIT, exitCodeFor } from '../exit-codes.js';
import { parsedOr, secondsOr, UsageError } from '../options.js';

export const AUTHORIZATION_USAGE = `Usage: mcp-conformance authorization --url ISSUER [options]

Fetches the authorization server's metadata where MCP clients look for it, registers a client (where it offers
dynamic registration), and runs the authorization code flow with PKCE S256 and a resource as MCP clients do, then
the requests it must refuse. The end-user step: BROWSER (a command that opens a URL) when set, or the suite follows
the authorization endpoint's redirects (a test setup that approves at once); a login page is a skip, not a hang.

Options:
  --url ISSUER            The issuer identifier (required)
  --client-id ID          A pre-registered client (its redirect_uri: http://127.0.0.1:PORT/callback, see --port)
  --client-secret SECRET  Its secret
  --port N                The redirect_uri's loopback port (default: a free one)
  --resource URL          The resource (RFC 8707) to ask tokens for: the MCP server's URL (default ISSUER/mcp)
  --scope SCOPES          The scope to ask for
  --timeout S             Seconds to wait for each answer (default 10)
  --browser-timeout S     Seconds the BROWSER step may take (default 120)
  --only GLOB             Only checks whose id matches (repeatable)
  --skip GLOB             Skip checks whose id matches (repeatable)
  --out DIR               Folder for the reports (default ${DEFAULTS.out})
  --expected-failures F   Baseline of expected failures (entries with on: are for server runs, not this one)
  --strict                SHOULD violations fail instead of warn
  -h, --help              Show this help`;

export async function authorizationCommand(argv: string[]): Promise<number> {
  const { values } = parsedOr(() => parse(argv), AUTHORIZATION_USAGE);
  if (values.help) {
    process.stdout.write(`${AUTHORIZATION_USAGE}\n`);
    return EXIT.ok;
  }
  if (!values.url || !URL.canParse(values.url))
    throw new UsageError(
      `--url takes the issuer's URL${values.url ? `, not ${JSON.stringify(values.url)}` : ''}\n\n${AUTHORIZATION_USAGE}`,
    );
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port takes a port number, not ${JSON.stringify(values.port)}`);
  const out = values.out ?? DEFAULTS.out;
  await checkFolder(out, `reports folder ${out}`);
  const baseline = values['expected-failures'] ? await loadBaseline(values['expected-failures']) : undefined;
  const { runAuthorizationConformance } = await import('../../run/authz/run.js');
  let report = await runAuthorizationConformance({
    // An issuer without a path is written without the slash a URL gets (RFC 8414 §2 compares it as a string).
    issuer: new URL(values.url).pathname === '/' ? values.url.replace(/\/$/, '') : values.url,
    clientId: values['client-id'],
    clientSecret: values['client-secret'],
    resource: values.resource,
    scope: values.scope,
    browser: process.env.BROWSER || undefined,
    redirectPort: port,
    timeoutMs: secondsOr(values.timeout, 'timeout', 10) * 1000,
    browserMs: secondsOr(values['browser-timeout'], 'browser-timeout', 120) * 1000,
    only: values.only,
    skip: values.skip,
    strict: values.strict,
  });
  // An authorization server has no revision or transport of its own: an entry limited to runs (on:) is not for it.
  if (baseline) report = { ...report, checks: applyBaseline(report.checks, baseline, { revision: '' }) };
  const written = await writeReports(report, out);
  process.stdout.write(
    renderConsole(report, {
      color: process.stdout.isTTY === true,
      paths: Object.values(written).filter((p): p is string => typeof p === 'string'),
    }) + (baseline ? `\n${baselineAdvice(report, baseline, false)}` : ''),
  );
  return exitCodeFor(report);
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: false,
    options: {
      url: { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      port: { type: 'string' },
      resource: { type: 'string' },
      scope: { type: 'string' },
      timeout: { type: 'string' },
      'browser-timeout': { type: 'string' },
      only: { type: 'string', multiple: true },
      skip: { type: 'string', multiple: true },
      out: { type: 'string' },
      'expected-failures': { type: 'string' },
      strict: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
