// The tool's own inputs, generated: mutations of valid case, config and expected-failures files, and command lines
// with unknown flags, missing values, bad numbers and conflicting options. Every one is either still valid or gets one
// clean line naming the file (with line and field) or the flag: never another kind of error (the CLI would print a
// stack trace), never a hang. Most run in-process through the loaders; a few through the CLI.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBaseline } from '../src/baseline/baseline.js';
import { parseCase } from '../src/checks/cases/load.js';
import { usageOrHarness } from '../src/cli/exit-codes.js';
import { flagOf, parseCli, UsageError } from '../src/cli/options.js';
import { loadConfig } from '../src/config/config.js';
import { resolveOptions } from '../src/config/options.js';
import { ConfigError } from '../src/config/yaml-file.js';
import { CLI, REFERENCE, ROOT } from './helpers.js';

const SEED = Number(process.env.TOOL_INPUTS_SEED ?? Date.now() % 2 ** 31);
const RUNS = 60;
/** Far above a loader's time on one small file, far below a hang. */
const HANG_MS = 5_000;
const tally = { generated: 0, clean: 0, valid: 0, stackTraces: 0, hangs: 0 };

afterAll(() => {
  console.log(
    `tool inputs (seed ${SEED}, TOOL_INPUTS_SEED=${SEED} replays): ${tally.generated} generated, ${tally.clean} clean errors, ${tally.valid} still valid, ${tally.stackTraces} stack traces, ${tally.hangs} hangs`,
  );
});

const CONFIG = `# a config
command: [node, dist/server.js, '--port={port}']
cwd: .
env:
  LOG_LEVEL: warn
timeout: 10
budget: 300
strict: false
out: reports
only: ['tools/**']
skip: [tools/call/unknown-tool]
revision: auto
runs: 50
toolCalls: safe
headers:
  Authorization: Bearer x
`;
const BASELINE = `- id: tools/call/unknown-tool
  reason: our server answers -32603 there
- id: 'resources/**'
  reason: resources are not done yet
`;

/** Edits that break YAML and schemas in the ways people do: cut, doubled or dropped lines, stray syntax, wrong types. */
const JUNK = [
  '',
  ':',
  ': :',
  '-',
  '- ',
  '[',
  ']',
  '{',
  '}',
  '"',
  "'",
  '&a',
  '*a',
  '!!binary',
  '\t',
  '#',
  '|',
  '>',
  '? ',
  '~',
  'null',
  '5',
  '-1e999',
  '0x',
  'true',
  '\u0000',
  '\ufeff',
  '\ud800',
  '  ',
  'id: x',
  'steps: 5',
  '<<: *a',
];
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.constantFrom(...JUNK) }),
  fc.record({
    kind: fc.constant('replace' as const),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 12 }),
    text: fc.constantFrom(...JUNK),
  }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('drop-line' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('double-line' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('indent' as const), at: fc.nat(), by: fc.constantFrom(' ', '   ', '\t') }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function mutate(text: string, edits: Mutation[]): string {
  for (const m of edits) {
    const at = m.at % (text.length + 1);
    const lines = text.split('\n');
    const line = m.at % lines.length;
    if (m.kind === 'insert') text = text.slice(0, at) + m.text + text.slice(at);
    if (m.kind === 'replace') text = text.slice(0, at) + m.text + text.slice(at + m.length);
    if (m.kind === 'truncate') text = text.slice(0, at);
    if (m.kind === 'drop-line') text = lines.filter((_, i) => i !== line).join('\n');
    if (m.kind === 'double-line') text = [...lines.slice(0, line + 1), ...lines.slice(line)].join('\n');
    if (m.kind === 'indent') text = lines.map((l, i) => (i === line ? m.by + l : l)).join('\n');
  }
  return text;
}

/** Runs `load`; the outcome is 'valid', or the one-line message of a clean error. Anything else fails the test. */
async function judge(load: () => unknown, names: string): Promise<string> {
  tally.generated++;
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('hang')), HANG_MS)));
  try {
    await Promise.race([Promise.resolve().then(load), hang]);
    tally.valid++;
    return 'valid';
  } catch (err) {
    if ((err as Error).message === 'hang') tally.hangs++;
    const clean = err instanceof ConfigError || err instanceof UsageError;
    if (!clean) tally.stackTraces += (err as Error).message === 'hang' ? 0 : 1;
    expect(clean, `not a clean error: ${(err as Error).stack}`).toBe(true);
    const message = usageOrHarness(err as Error);
    expect(message.split('\n'), message).toHaveLength(1);
    expect(message, `does not name ${names}`).toContain(names);
    tally.clean++;
    return message;
  } finally {
    clearTimeout(timer);
  }
}

const dir = await mkdtemp(join(tmpdir(), 'mcpc-inputs-'));
const CASES = await Promise.all(
  ['cases/tools/call-malformed.yaml', 'cases/base/batch-removed.yaml'].map(async (f) =>
    readFile(join(ROOT, f), 'utf8').catch(() => undefined),
  ),
);

describe('generated inputs of the tool', () => {
  it('mutated case files: still valid, or one line naming file:line:column', async () => {
    const seeds = CASES.filter((c): c is string => c !== undefined);
    expect(seeds.length).toBeGreaterThan(0);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...seeds),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        async (seed, edits) => {
          const message = await judge(() => parseCase('/cases/mine.yaml', mutate(seed, edits)), '/cases/mine.yaml');
          if (message !== 'valid') expect(message).toMatch(/^\/cases\/mine\.yaml(:\d+:\d+)?: /);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('mutated config files: still valid, or one line naming file:line:column and the field', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (edits) => {
        const file = join(dir, `config-${n++}.yaml`);
        await writeFile(file, mutate(CONFIG, edits));
        const message = await judge(() => loadConfig(file), file);
        if (message !== 'valid') expect(message).toMatch(new RegExp(`^${file}(:\\d+:\\d+)?: `));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('mutated expected-failures files: still valid, or one line naming file:line:column', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (edits) => {
        const file = join(dir, `baseline-${n++}.yaml`);
        await writeFile(file, mutate(BASELINE, edits));
        const message = await judge(() => loadBaseline(file), file);
        if (message !== 'valid') expect(message).toMatch(new RegExp(`^${file}(:\\d+:\\d+)?: `));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  // Each generated command line is broken in a known way, so it must be refused, naming the flag (or the targets).
  const numeric = {
    timeout: ['0', '-1', 'abc', 'NaN', '1e999'],
    budget: ['0', '-5', 'x'],
    seed: ['-1', '1.5', 'x', '1e400'],
    runs: ['0', '2.5', 'many'],
    port: ['0', '65536', '1.5', 'x'],
  };
  const broken = fc.oneof(
    fc.record({
      why: fc.constant('unknown flag'),
      flag: fc.constantFrom('--nope', '--outt', '--time-out', '-x', '--strict-mode'),
      value: fc.constant(undefined),
    }),
    fc.record({
      why: fc.constant('missing value'),
      flag: fc.constantFrom('--out', '--timeout', '--config', '--env', '--seed', '--shard', '--cases'),
      value: fc.constant(undefined),
    }),
    fc.constantFrom(
      ...Object.entries(numeric).flatMap(([flag, values]) =>
        values.map((value) => ({ why: 'bad number', flag: `--${flag}`, value })),
      ),
    ),
    fc.record({
      why: fc.constant('bad value'),
      flag: fc.constantFrom('--env', '--shard', '--transport', '--tool-calls', '--revision', '--header'),
      value: fc.constantFrom('=x', '0/0', '3/2', 'carrier-pigeon', ':', ''),
    }),
  );
  const fine = fc.array(
    fc.constantFrom(
      ['--strict'],
      ['--verbose'],
      ['--timeout', '3'],
      ['--only', 'tools/**'],
      ['--runs', '5'],
      ['--env', 'A=b'],
    ),
    { maxLength: 3 },
  );

  it('command lines with unknown flags, missing values and bad values: one line naming the flag', async () => {
    await fc.assert(
      fc.asyncProperty(fine, broken, fine, async (given, bad, also) => {
        // The last of a flag given twice wins, as is usual: the good ones must not repeat the broken flag.
        const before = given.filter(([flag]) => flag !== bad.flag);
        const after = also.filter(([flag]) => flag !== bad.flag);
        // A flag missing its value comes last, or the next token would be taken as its value.
        const argv =
          bad.why === 'missing value'
            ? [...before.flat(), ...after.flat(), 'server.js', bad.flag]
            : [
                ...before.flat(),
                bad.flag,
                ...(bad.value === undefined ? [] : [bad.value]),
                ...after.flat(),
                'server.js',
              ];
        const message = await judge(
          async () => resolveOptions(parseCli(argv).options, flagOf),
          bad.flag.replace(/^--/, ''),
        );
        expect(message, argv.join(' ')).not.toBe('valid');
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('command lines with conflicting targets: one line saying so', async () => {
    await fc.assert(
      fc.asyncProperty(
        fine,
        fc.constantFrom(['a.js', 'b.js'], ['a.js', '--', 'node', 'b.js'], ['--'], ['a.js', 'b.js', 'c.js']),
        async (flags, tail) => {
          const message = await judge(
            async () => parseCli([...flags.flat(), ...tail]),
            (tail as readonly string[]).includes('--') ? '--' : 'target',
          );
          expect(message).not.toBe('valid');
        },
      ),
      { seed: SEED, numRuns: 20 },
    );
  });

  it('through the CLI: exit 2 and one line on stderr, never a stack trace, before any server starts', async () => {
    const caseDir = await mkdtemp(join(tmpdir(), 'mcpc-inputs-cases-'));
    await writeFile(join(caseDir, 'broken.yaml'), mutate(CASES[0]!, [{ kind: 'truncate', at: 200 }]));
    const config = join(dir, 'cli-config.yaml');
    await writeFile(config, CONFIG.replace('timeout: 10', 'timeout: ten'));
    const baseline = join(dir, 'cli-baseline.yaml');
    await writeFile(baseline, BASELINE.replace('  reason: our server answers -32603 there\n', ''));
    const lines: [string[], string][] = [
      [['--cases', caseDir, REFERENCE], 'broken.yaml'],
      [['--config', config, REFERENCE], 'cli-config.yaml'],
      [['--expected-failures', baseline, REFERENCE], 'cli-baseline.yaml'],
      [['--timeout', 'soon', REFERENCE], '--timeout'],
      [['--nope', REFERENCE], '--nope'],
      [['--out'], '--out'],
    ];
    for (const [args, names] of lines) {
      tally.generated++;
      const r = await execa(process.execPath, [CLI, ...args], {
        reject: false,
        timeout: 30_000,
        env: { GITHUB_ACTIONS: '', NO_COLOR: '1' },
        cwd: dir,
      });
      if (r.timedOut) tally.hangs++;
      const stderr = String(r.stderr);
      if (/^\s+at /m.test(stderr) || stderr.includes('internal error')) tally.stackTraces++;
      expect([r.exitCode, stderr.split('\n').length, stderr.includes(names)], `${args.join(' ')}\n${stderr}`).toEqual([
        2,
        1,
        true,
      ]);
      tally.clean++;
    }
  });
});
