// What the corpus scripts share (scripts/corpus.mjs for servers, scripts/corpus-clients.mjs for clients): the cache
// folder outside the project, pinned installs into it, the check that no process of the corpus is left, and the
// generated table in corpus/README.md.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const YAML = createRequire(import.meta.url)('yaml');
export const DIR = process.env.MCP_CONFORMANCE_CORPUS_DIR ?? join(homedir(), '.cache', 'mcp-conformance-corpus');

export const slug = (name) => name.replace(/^@/, '').replace(/[^a-zA-Z0-9.-]+/g, '-');
/** `@scope/name@1.2.3` → [`@scope/name`, `1.2.3`] */
export const split = (spec) => [spec.slice(0, spec.lastIndexOf('@')), spec.slice(spec.lastIndexOf('@') + 1)];
/** The folder a package of the corpus is installed in (its own: the packages' dependencies differ). */
export const prefixOf = (name) => join(DIR, 'pkgs', slug(name));

/** Installs each `name@version` pinned into its own folder; one installed at that version already is kept. */
export function installPinned(specs) {
  for (const spec of new Set(specs)) {
    const [name, version] = split(spec);
    const prefix = prefixOf(name);
    const manifest = join(prefix, 'node_modules', name, 'package.json');
    // Some packages spell their version with a leading v in their package.json.
    if (
      existsSync(manifest) &&
      String(JSON.parse(readFileSync(manifest, 'utf8')).version).replace(/^v/, '') === version
    )
      continue;
    process.stdout.write(`install ${spec}\n`);
    mkdirSync(prefix, { recursive: true });
    // A browser download (puppeteer's, for desktop-commander) cannot reach its host here, and no run needs it.
    const npm = spawnSync(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        `${name}@${version}`,
        '--save-exact',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--loglevel=error',
      ],
      { stdio: 'inherit', env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1' } },
    );
    if (npm.status !== 0) {
      process.stderr.write(`corpus: installing ${spec} failed (exit ${npm.status})\n`);
      process.exit(2);
    }
  }
}

/** The ids of the processes still running whose command line names the corpus folder. */
export function processesLeft() {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid)
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(DIR);
      } catch {
        return false;
      }
    });
}

/**
 * Puts `table` between the `<!-- marker -->` and `<!-- /marker -->` lines of corpus/README.md (appended if absent),
 * naming `script` as its writer.
 */
export function writeReadmeTable(marker, script, table) {
  const readme = join(ROOT, 'corpus/README.md');
  const old = existsSync(readme) ? readFileSync(readme, 'utf8') : '';
  const block = new RegExp(`<!-- ${marker}[\\s\\S]*<!-- /${marker} -->`);
  const text = `<!-- ${marker}: written by ${script} -->\n${table}\n<!-- /${marker} -->`;
  writeFileSync(readme, block.test(old) ? old.replace(block, () => text) : `${old}\n${text}\n`);
}
