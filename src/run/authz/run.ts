// `mcp-conformance authorization`: probes the authorization server once, judges the record with every authz/ check,
// and returns a report in the shape of the other sides' (the same writers render it).
import { AUTHZ_CHECKS } from '../../checks/authz/checks.js';
import type { AuthzCheckDef, AuthzRecord } from '../../checks/authz/record.js';
import { explainData } from '../../explain/data.js';
import type { CheckResult, Report } from '../../schema/generated/report.js';
import { summarize } from '../../report/summary.js';
import { selects } from '../../suite/glob.js';
import { redact } from '../../transport/secrets.js';
import { TOOL } from '../../version.js';
import { checkResult } from '../result.js';
import { type ProbeOptions, probe } from './probe.js';

export interface AuthzRunOptions extends ProbeOptions {
  /** The checks to run, before --only and --skip: an official scenario's. */
  checks?: readonly string[];
  /** Only the checks whose rule exists at this revision (its catalogue row's revisions). */
  revision?: string;
  only?: string[];
  skip?: string[];
  strict?: boolean;
}

/** Whether a check's rule exists at `revision`, by its catalogue row. */
export const appliesAt = (def: AuthzCheckDef, revision: string): boolean =>
  explainData().requirements[def.requirement.id]?.revisions.includes(revision) ?? false;

/** Every check's result on one record; a failure or warning says which MCP clients break. */
export function judgeAuthz(
  record: AuthzRecord,
  options: Pick<AuthzRunOptions, 'checks' | 'revision' | 'only' | 'skip' | 'strict'> = {},
): CheckResult[] {
  const { checks, revision } = options;
  const chosen = AUTHZ_CHECKS.filter(
    (c) =>
      (!checks || checks.includes(c.id)) &&
      (!revision || appliesAt(c, revision)) &&
      selects(c.id, options.only, options.skip),
  );
  return chosen.map((def) => {
    const t0 = performance.now();
    let o = def.judge(record);
    if (o.status === 'fail' || o.status === 'warn') o = { ...o, message: `${o.message} — breaks: ${def.breaks}` };
    if (options.strict && o.status === 'warn') o = { ...o, status: 'fail' };
    return checkResult(def, o, Math.round(performance.now() - t0));
  });
}

/** Secrets the run handled (client secret, codes, tokens), to read *** wherever they were echoed. */
function secretsOf(record: AuthzRecord): string[] {
  const rounds = Object.values(record.rounds);
  const values = [
    record.client?.secret,
    record.registration?.json?.client_secret,
    record.registration?.json?.registration_access_token,
    record.refresh?.json?.access_token,
    record.refresh?.json?.refresh_token,
    record.refreshReuse?.json?.access_token,
    record.refreshReuse?.json?.refresh_token,
    ...rounds.flatMap((r) => [
      r?.authorized.redirect?.searchParams.get('code'),
      r?.token?.json?.access_token,
      r?.token?.json?.refresh_token,
      r?.token?.json?.id_token,
      r?.token?.sent?.code,
      r?.token?.sent?.code_verifier,
    ]),
  ];
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v.length >= 4))].sort(
    (a, b) => b.length - a.length,
  );
}

export async function runAuthorizationConformance(options: AuthzRunOptions): Promise<Report> {
  const startedAt = new Date();
  const t0 = performance.now();
  const record = await probe(options);
  const checks = judgeAuthz(record, options);
  const report: Report = {
    tool: TOOL,
    target: { description: `authorization server ${options.issuer}`, url: options.issuer },
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - t0),
    strict: options.strict ?? false,
    summary: summarize(checks),
    checks,
  };
  return redact(report, secretsOf(record));
}
