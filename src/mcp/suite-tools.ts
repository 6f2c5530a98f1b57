// The suite as MCP tools and resources: run it on a target, list its checks, explain one; the last run's reports.
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DEFAULTS } from '../config/defaults.js';
import { type ConformanceOptions, resolveOptions } from '../config/options.js';
import { explainData } from '../explain/data.js';
import { allChecks, explainCheck, fixFor, renderExplanation } from '../explain/explain.js';
import { checkFolder } from '../report/output.js';
import { formatTotals, summarize, verdict } from '../report/summary.js';
import { withoutRevision } from '../report/text.js';
import { type WrittenReports, writeReports } from '../report/write.js';
import type { CheckResult, Report } from '../schema/generated/report.js';
import { SCHEMA_REVISIONS } from '../schema/revisions.js';
import { TOOL } from '../version.js';
import type { McpResource, McpServerSpec, McpTool, ToolContext } from './server.js';

type Json = Record<string, unknown>;

const text = (t: string) => ({ type: 'text', text: t });
const failed = (message: string) => ({ content: [text(message)], isError: true });
const LEVELS = ['MUST', 'SHOULD', 'MAY'];

/** What an agent needs of one finding: the check, the requirement it broke, and what to do. */
function finding(c: CheckResult) {
  const row = explainData().requirements[c.requirement.id];
  return {
    status: c.status,
    id: c.id,
    title: c.title,
    message: c.message,
    requirement: {
      id: c.requirement.id,
      level: c.requirement.level,
      text: c.requirement.text,
      spec: c.requirement.spec,
    },
    ...(row?.source && { specSays: row.source }),
    fix: row?.expected ? `The suite expects: ${row.expected}` : fixFor(c.id),
    explain: `mcp-conformance explain ${withoutRevision(c.id)}`,
  };
}

/** The run's answer: verdict, counts, every fail and warn (with the requirement and a hint), and the reports. */
function runAnswer(report: Report, written: WrittenReports, interrupted: boolean) {
  const findings = report.checks.filter((c) => c.status === 'fail' || c.status === 'warn').map(finding);
  const errors = report.checks.filter((c) => c.status === 'error').map((c) => ({ id: c.id, message: c.message }));
  const answer = {
    verdict: verdict(report),
    ...(interrupted && { interrupted: true }),
    counts: summarize(report.checks),
    findings,
    errors,
    reports: written,
    resources: LAST_RUN.map((r) => r.uri),
  };
  const lines = [
    `verdict: ${answer.verdict.toUpperCase()}${interrupted ? ' (interrupted: not every check ran)' : ''} · ${formatTotals(answer.counts)}`,
    ...findings.flatMap((f) => [
      '',
      `${f.status.toUpperCase()} ${f.id}: ${f.message}`,
      `  requirement ${f.requirement.id} (${f.requirement.level}): ${f.requirement.text} ${f.requirement.spec}`,
      ...(f.specSays ? [`  spec        ${f.specSays}`] : []),
      `  fix         ${f.fix}`,
      `  explain     ${f.explain}`,
    ]),
    ...errors.map((e) => `ERROR ${e.id}: ${e.message}`),
    '',
    `reports: ${Object.values(written).join(', ')}`,
  ];
  return { content: [text(lines.join('\n')), text(JSON.stringify(answer))], structuredContent: answer };
}

/** The last run's reports, by URI, once there has been a run. */
const LAST_RUN = [
  { file: 'json', uri: 'mcp-conformance://last-run/report.json', mimeType: 'application/json', name: 'report.json' },
  { file: 'html', uri: 'mcp-conformance://last-run/index.html', mimeType: 'text/html', name: 'index.html' },
] as const;

/** The suite's MCP server: its tools, and the reports of this process's last run as resources. */
export function suiteServer(): McpServerSpec {
  let last: WrittenReports | undefined;
  let running = false;

  const run: McpTool = {
    name: 'run-suite',
    title: 'Run the conformance suite',
    description:
      'Starts (or connects to) an MCP server and runs the conformance suite on it, as `mcp-conformance` does. Give `target` (a file, a project folder, or an http(s) URL of a running server) or `command` (a command and its arguments). Answers with the verdict, the counts, every fail and warn with its requirement and a fix hint, and the paths of the reports written (also resources mcp-conformance://last-run/report.json and index.html). Reports progress when asked; a cancelled run stops its checks and stops the servers it started.',
    inputSchema: {
      type: 'object',
      properties: {
        target: {
          type: 'string',
          description: 'A server file, a project folder (its package.json bin or main), or a URL.',
        },
        command: { type: 'array', items: { type: 'string' }, minItems: 1, description: 'A command and its arguments.' },
        revision: {
          enum: ['auto', 'all', ...SCHEMA_REVISIONS],
          description: 'The revision to test (default auto: every era the server speaks).',
        },
        only: { type: 'array', items: { type: 'string' }, description: 'Check ids or globs to run (tools/**).' },
        skip: { type: 'array', items: { type: 'string' }, description: 'Check ids or globs to leave out.' },
        toolCalls: {
          enum: ['safe', 'all', 'none'],
          description: 'Which tools generated calls may reach (default safe: read-only ones).',
        },
        timeout: {
          type: 'number',
          exclusiveMinimum: 0,
          description: 'Seconds to wait for each response (default 10).',
        },
        out: { type: 'string', description: 'The reports folder (default: reports, in the working directory).' },
      },
      additionalProperties: false,
    },
    // It starts processes and may call the target's tools (all of them with toolCalls: all): not read-only.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    async call(args: Json, ctx: ToolContext) {
      if ((args.target === undefined) === (args.command === undefined))
        return failed('Give either target (a path or a URL) or command (a command and its arguments).');
      if (running) return failed('A run is in progress; wait for it, or cancel it.');
      running = true;
      try {
        const options: ConformanceOptions = {
          target: (args.target ?? args.command) as string | string[],
          ...(args.revision !== undefined && { revision: args.revision as ConformanceOptions['revision'] }),
          ...(args.only !== undefined && { only: args.only as string[] }),
          ...(args.skip !== undefined && { skip: args.skip as string[] }),
          ...(args.toolCalls !== undefined && { toolCalls: args.toolCalls as ConformanceOptions['toolCalls'] }),
          ...(args.timeout !== undefined && { timeout: args.timeout as number }),
        };
        const resolved = await resolveOptions(options);
        const out = resolve((args.out as string | undefined) ?? DEFAULTS.out);
        await checkFolder(out, `out ${out}`);
        const { combined, conformEach, revisionOf } = await import('../run/conform.js');
        const runs = await conformEach(resolved, ctx.signal, progressOf(ctx));
        // Several revisions: each run's reports in <out>/<revision>/, all of them side by side in <out>/ (as the CLI).
        if (runs.length > 1) for (const r of runs) await writeReports(r.report, join(out, revisionOf(r)));
        const report = combined(runs);
        last = await writeReports(report, out);
        return runAnswer(report, last, ctx.signal.aborted);
      } catch (err) {
        // Mistakes in the options or the target are one line, as on the command line.
        return failed(`mcp-conformance: ${(err as Error).message}`);
      } finally {
        running = false;
      }
    },
  };

  const list: McpTool = {
    name: 'list-checks',
    title: 'List the checks',
    description:
      "Lists the suite's checks, one a line: id, level (MUST fails, SHOULD warns), kind (check, case or frame rule), the requirement id and title. Filter by area (the first part of the id, e.g. tools or stateless) or level.",
    inputSchema: {
      type: 'object',
      properties: {
        area: {
          type: 'string',
          description: 'Only checks whose id starts with this area (tools, transport/stdio, …).',
        },
        level: { enum: LEVELS, description: 'Only checks of this level.' },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    async call(args: Json) {
      const area = typeof args.area === 'string' ? args.area.replace(/\/+$/, '') : undefined;
      const rows = (await allChecks()).filter(
        (c) =>
          (area === undefined || c.id === area || c.id.startsWith(`${area}/`)) &&
          (args.level === undefined || c.requirement.level === args.level),
      );
      const lines = rows.map((c) => `${c.id}  ${c.requirement.level}  ${c.kind}  ${c.requirement.id}  ${c.title}`);
      return { content: [text([...lines, `${rows.length} checks`].join('\n'))] };
    },
  };

  const explain: McpTool = {
    name: 'explain-check',
    title: 'Explain a check',
    description:
      'Explains one check: its requirement (catalogue id, level, text, the spec link of each revision it applies to), what the suite sends and expects, the faults that fail it, and how to fix the usual causes. The same text as `mcp-conformance explain <id>`.',
    inputSchema: {
      type: 'object',
      properties: { id: { type: 'string', description: 'A check id, e.g. tools/call/unknown-tool.' } },
      required: ['id'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    async call(args: Json) {
      try {
        return { content: [text(renderExplanation(await explainCheck(args.id as string)))] };
      } catch (err) {
        return failed((err as Error).message);
      }
    },
  };

  return {
    name: TOOL.name,
    title: 'MCP conformance suite',
    version: TOOL.version,
    instructions:
      'Tests MCP servers against the specification. Call run-suite on the server being written (a path, a command or a URL); for each fail or warn, explain-check tells what the check wants and how to fix it; list-checks shows every check.',
    tools: [run, list, explain],
    resources: (): McpResource[] =>
      last === undefined
        ? []
        : LAST_RUN.map((r) => {
            const path = last![r.file];
            return {
              uri: r.uri,
              name: r.name,
              title: `The last run's ${r.name}`,
              description: `${path}, written by the last run-suite of this server.`,
              mimeType: r.mimeType,
              read: () => readFile(path, 'utf8'),
            };
          }),
  };
}

/** Progress as the checks end: one count over every run of the command (it only grows), and the check under way. */
function progressOf(ctx: ToolContext) {
  let base = 0;
  let lastTotal = 0;
  let revision: string | undefined;
  let sent = -1;
  return (p: { done: number; total: number; current?: string; revision?: string }) => {
    if (p.revision !== revision) {
      if (revision !== undefined) base += lastTotal;
      revision = p.revision;
    }
    lastTotal = p.total;
    const value = base + p.done;
    if (value <= sent) return;
    sent = value;
    ctx.progress(
      value,
      p.revision === undefined ? p.total : undefined,
      p.current && `${p.revision ? `${p.revision}: ` : ''}${p.current}`,
    );
  };
}
