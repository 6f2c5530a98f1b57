import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CONFIG_FILE } from '../../config/config.js';
import { detectEntry, type Entry } from '../../init/detect.js';
import { BASELINE, WORKFLOW, badgeMarkdown, baselineFile, configFile, workflowFile } from '../../init/files.js';
import { TOOL } from '../../version.js';
import { EXIT } from '../exit-codes.js';
import { UsageError } from '../options.js';

const HELP = `Usage: mcp-conformance init [options] [-- <command> [args...]]

Sets a server's project up for conformance testing: writes ${CONFIG_FILE}, ${WORKFLOW}
(the Action: reports as an artifact, SARIF to code scanning, the badge) and an empty ${BASELINE},
then runs the suite once. The server is found in package.json (bin, else main), pyproject.toml ([project.scripts])
or a Dockerfile (CMD or ENTRYPOINT), unless named. A file that exists is kept unless --force.

Options:
  --dir DIR              The project folder (default: the working directory)
  --target PATH          The server: a file or folder in the project
  --url URL              The server: a running HTTP server
  -- <command>           The server: a command and its arguments
  --action REF           The Action the workflow uses (default: OWNER/mcp-conformance@v${TOOL.version}: where it is published)
  --repo OWNER/REPO      The GitHub repository, for the badge's URL (default: from git's origin remote)
  --force                Overwrite files that exist
  --no-run               Write the files only
  --update-baseline      After the run, record its failures in ${BASELINE}
  -h, --help             Show this help

Exit codes: 0 the files are written (whatever the run's verdict), 2 usage error.`;

/** The GitHub repository of the project's origin remote, when it is one. */
function originRepository(dir: string): string | undefined {
  try {
    const url = execFileSync('git', ['-C', dir, 'config', '--get', 'remote.origin.url'], { encoding: 'utf8' });
    return /github\.com[:/]([^/]+\/[^/]+?)(?:\.git)?\s*$/.exec(url)?.[1];
  } catch {
    return undefined;
  }
}

/** `mcp-conformance init`: writes the config, the workflow and the expected-failures file; runs the suite once. */
export async function initCommand(argv: string[], signal: AbortSignal): Promise<number> {
  const dashdash = argv.indexOf('--');
  const command = dashdash === -1 ? undefined : argv.slice(dashdash + 1);
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: dashdash === -1 ? argv : argv.slice(0, dashdash),
      options: {
        dir: { type: 'string' },
        target: { type: 'string' },
        url: { type: 'string' },
        action: { type: 'string' },
        repo: { type: 'string' },
        force: { type: 'boolean' },
        run: { type: 'boolean', default: true },
        'update-baseline': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      allowNegative: true,
      strict: true,
    }));
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]);
  }
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }
  const given = [values.target, values.url, command].filter((v) => v !== undefined);
  if (given.length > 1) throw new UsageError('init: name the server once: --target, --url or -- <command>');
  if (command?.length === 0) throw new UsageError('init: no command after --');
  const dir = resolve((values.dir as string | undefined) ?? '.');
  if (!existsSync(dir)) throw new UsageError(`init: --dir ${dir}: no such folder`);
  const detected = detectEntry(dir);
  const entry: Entry | undefined =
    values.url !== undefined
      ? { target: values.url as string, from: '--url; it must be reachable from the CI runner', setup: [] }
      : values.target !== undefined
        ? { target: values.target as string, from: '--target', setup: detected?.setup ?? [] }
        : command
          ? { command, from: '-- <command>', setup: detected?.setup ?? [] }
          : detected;
  if (!entry)
    throw new UsageError(
      `init: no server found in ${dir} (package.json bin or main, pyproject.toml [project.scripts], a Dockerfile CMD): name it with --target, --url or -- <command>`,
    );
  const action = (values.action as string | undefined) ?? `OWNER/mcp-conformance@v${TOOL.version}`;
  const repository = (values.repo as string | undefined) ?? originRepository(dir);

  process.stdout.write(`server      ${entry.command ? entry.command.join(' ') : entry.target} (${entry.from})\n`);
  const files: [string, string][] = [
    [CONFIG_FILE, configFile(entry)],
    [WORKFLOW, workflowFile(entry, action)],
    [BASELINE, baselineFile()],
  ];
  for (const [name, text] of files) {
    const path = join(dir, name);
    if (existsSync(path) && !values.force) {
      process.stdout.write(`kept        ${name} (it exists; --force overwrites it)\n`);
      continue;
    }
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
    process.stdout.write(`wrote       ${name}\n`);
  }
  if (action.startsWith('OWNER/'))
    process.stdout.write(
      `action      ${WORKFLOW} uses ${action}: replace OWNER with where mcp-conformance is published (or --action REF)\n`,
    );
  process.stdout.write(`badge       ${badgeMarkdown(repository)}\n`);
  if (values.run === false) return EXIT.ok;

  // The run, as `mcp-conformance --config <file>` in the project would do it.
  process.stdout.write('\n');
  const { runCommand } = await import('./run.js');
  const update = values['update-baseline'] === true;
  const config = join(dir, CONFIG_FILE);
  const code = await runCommand(['--config', config, ...(update ? ['--update-baseline'] : [])], signal);
  if (code === EXIT.failed && !update)
    process.stdout.write(
      `\nThe server fails some checks. To have CI fail on new failures only, record these in ${BASELINE}:\n  npx mcp-conformance --config ${config} --update-baseline\n(or run init again with --update-baseline), then edit each entry's reason.\n`,
    );
  return EXIT.ok;
}
