// The three files `init` writes into a server's project: the config, the CI workflow, the expected-failures file.
import { readFileSync } from 'node:fs';
import type { Entry } from './detect.js';

export const WORKFLOW = '.github/workflows/mcp-conformance.yml';
export const BASELINE = 'conformance-baseline.yaml';
/** Where the workflow publishes the badge: a branch of its own, so no commit of the project changes for it. */
export const BADGE_BRANCH = 'mcp-conformance-badge';

/** A YAML scalar or flow list: JSON is YAML, and quotes every string that needs it. */
const y = (value: unknown) => JSON.stringify(value);

/** The config schema's own id: the `$schema` an editor follows. */
function schemaId(): string {
  const schema = JSON.parse(readFileSync(new URL('../../schema/config.schema.json', import.meta.url), 'utf8'));
  return schema.$id as string;
}

export function configFile(entry: Entry): string {
  const server = entry.command ? `command: ${y(entry.command)}` : `target: ${y(entry.target)}`;
  return [
    `$schema: ${y(schemaId())}`,
    `# The server to test (${entry.from}). Every key is an option of the command line; see the docs (Config file).`,
    server,
    `expectedFailures: ${BASELINE}`,
    'out: reports',
    '',
  ].join('\n');
}

export function baselineFile(): string {
  return [
    '# Checks expected to fail, each with why: they do not fail the run, and one that passes does (a stale entry).',
    '# `npx mcp-conformance --update-baseline` writes the failures of a run here; see the docs (Expected failures).',
    '[]',
    '',
  ].join('\n');
}

/** The workflow: build, run the suite with the Action (reports as an artifact, SARIF to code scanning), publish the badge. */
export function workflowFile(entry: Entry, action: string): string {
  const step = (s: Entry['setup'][number]) => {
    const w = Object.entries(s.with ?? {});
    return [
      `      - ${s.uses ? `uses: ${s.uses}` : `run: ${s.run}`}`,
      ...(w.length > 0 ? ['        with:', ...w.map(([k, v]) => `          ${k}: ${y(v)}`)] : []),
    ].join('\n');
  };
  return `# Written by \`mcp-conformance init\`. Tests the MCP server against the specification on every push and pull request.
name: MCP conformance
on: [push, pull_request]
permissions:
  contents: read
jobs:
  conformance:
    runs-on: ubuntu-latest
    permissions:
      contents: write          # the badge branch
      security-events: write   # the SARIF upload
    steps:
      - uses: actions/checkout@v4
${entry.setup.map(step).join('\n')}
      - id: mcp
        uses: ${action}
        with:
          config: mcp-conformance.config.yaml
          upload-sarif: true
      - if: always()
        uses: actions/upload-artifact@v4
        with:
          name: mcp-conformance-reports
          path: reports/
      # The badge: reports/badge.json (a shields.io endpoint) on branch ${BADGE_BRANCH}, from the default branch only.
      - if: always() && github.event_name == 'push' && github.ref_name == github.event.repository.default_branch
        shell: bash
        run: |
          cp reports/badge.json reports/badge.svg "$RUNNER_TEMP/"
          cd "$RUNNER_TEMP" && rm -rf badge && mkdir badge && cd badge && git init -q -b ${BADGE_BRANCH}
          cp ../badge.json ../badge.svg .
          git add badge.json badge.svg
          git -c user.name=github-actions -c user.email=github-actions@users.noreply.github.com commit -qm "MCP conformance badge"
          git push -qf "https://x-access-token:\${{ github.token }}@github.com/\${{ github.repository }}" HEAD:${BADGE_BRANCH}
`;
}

/** The Markdown of the badge, for the project's README: shields.io reading the badge branch's badge.json. */
export function badgeMarkdown(repository: string | undefined): string {
  const repo = repository ?? 'OWNER/REPO';
  const json = `https://raw.githubusercontent.com/${repo}/${BADGE_BRANCH}/badge.json`;
  return `![MCP conformance](https://img.shields.io/endpoint?url=${encodeURIComponent(json)})`;
}
