// How a stdio run spends server processes: the auto probe's session goes on as the shared one, and the checks that
// only need a session apart (bad input, session state) take turns on scratch sessions, without changing a verdict.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_REPLACED, ScratchSessions } from '../../src/run/scratch.js';
import type { Report } from '../../src/schema/generated/report.js';
import { Session } from '../../src/session/session.js';
import { Transcript } from '../../src/transcript.js';
import { startStdio } from '../../src/transport/stdio.js';
import { FAULTY, REFERENCE, ROOT, runCli } from '../helpers.js';

/** The faulty server (no fault unless MCP_FAULTS) behind a shell that counts its starts in a file. */
async function counted(args: string[], faults = ''): Promise<{ report: Report; starts: number }> {
  const log = join(await mkdtemp(join(tmpdir(), 'mcpc-starts-')), 'starts');
  const run = await runCli([
    '--seed',
    '3',
    ...args,
    '--env',
    `START_LOG=${log}`,
    '--env',
    `MCP_FAULTS=${faults}`,
    '--',
    'sh',
    '-c',
    `echo x >> "$START_LOG"; exec "${process.execPath}" "${FAULTY}"`,
  ]);
  expect(run.report, run.stderr).toBeDefined();
  return { report: run.report!, starts: (await readFile(log, 'utf8')).split('\n').filter(Boolean).length };
}

const statuses = (r: Report) => Object.fromEntries(r.checks.map((c) => [c.id, c.status]));

describe('server processes of a stdio run', () => {
  it('a default run starts 7: the probe (then the shared session), 2 version probes, 1 for the uninitialized cases and then the cancellation, 1 scratch session (none when the first start measured heavy: the shared one is lent), 1 declaring client capabilities that first asks for an unsupported version, 1 for the progress probe', async () => {
    const { report, starts } = await counted([]);
    expect(report.summary).toMatchObject({ fail: 0, warn: 0, error: 0 });
    // The faulty server's first start costs about 0.5 s of CPU, the line between light and heavy (see StartGate): a
    // light one is let start two a core and gets a scratch session, a heavy one one a core and none.
    const light = report.processes?.startsAtOnce === 2 * availableParallelism();
    const expected = light ? 7 : 6;
    expect(starts).toBe(expected);
    // The report counts them too, and says how many were let start at once.
    expect(report.processes).toMatchObject({
      started: expected,
      startsAtOnce: (light ? 2 : 1) * availableParallelism(),
    });
    // The critical path names every start and the fixed waits with their length (the no-response case waits 200 ms).
    const path = report.criticalPath!;
    expect(path.starts?.count).toBe(expected);
    expect(path.line).toMatch(new RegExp(`^\\d+\\.\\d s: ${expected} server starts at \\d+\\.\\d s each`));
    expect(path.fixedWaits).toContainEqual({
      what: "a case's noResponse step (base/notification/no-response)",
      ms: 200,
      count: 1,
    });
    expect(path.slowCalls.length).toBeGreaterThan(0);
    // The version probes and the uninitialized cases had servers of their own; the others took turns on the scratch session.
    const own = [
      'lifecycle/version/echo',
      'lifecycle/version/unsupported',
      'lifecycle/ping/before-initialize',
      'base/notification/no-response',
      'cancellation/request/no-response',
    ];
    expect(own.map((id) => statuses(report)[id])).toEqual(['pass', 'pass', 'pass', 'pass', 'pass']);
    // ping before initialize started the process; the notification case and then the cancellation went on in it.
    const spawned = (id: string) =>
      report.checks.find((c) => c.id === id)!.transcript!.some((e) => e.dir === 'event' && e.text.startsWith('spawn'));
    expect(own.slice(2).map(spawned)).toEqual([true, false, false]);
  });

  it("a scratch session that another check's input disturbed is replaced before the next turn: no verdict moves", async () => {
    // After a line that is not JSON, the server answers every request but ping with an error: on a scratch session
    // the checks after malformed-json would fail. The session's health request (tools/list) shows it, and the next
    // turn gets a new session.
    const [poisoned, clean] = await Promise.all([counted([], 'poisoned-by-garbage'), counted([])]);
    expect(statuses(poisoned.report)).toEqual(statuses(clean.report));
    // Each run sizes its scratch pool from its own first start (one when light, none when heavy), and two runs side by
    // side on a loaded machine may size it differently: compare the starts beyond the pool.
    const beyondPool = (r: { report: Report; starts: number }) =>
      r.starts - (r.report.processes?.startsAtOnce === 2 * availableParallelism() ? 1 : 0);
    expect(beyondPool(poisoned)).toBeGreaterThan(beyondPool(clean));
    const noted = (r: Report) =>
      r.checks.filter((c) => c.message.includes('(this is its run on a server of its own')).map((c) => c.id);
    expect(noted(poisoned.report)).toEqual([]);
    expect(noted(clean.report)).toEqual([]);
  });

  it('a server heavy to start lends its shared session to the scratch turns: no verdict moves, and no start is left for them', async () => {
    // --max-starts 1 makes the server heavy to start (see StartGate.roomy): no scratch session is started.
    const heavy = ['--max-starts', '1'];
    const [clean, poisoned, crashing] = await Promise.all([
      counted(heavy),
      counted(heavy, 'poisoned-by-garbage'),
      counted(heavy, 'crash-on-malformed'),
    ]);
    expect(clean.report.summary).toMatchObject({ fail: 0, warn: 0, error: 0 });
    expect(clean.starts).toBe(6);
    // The turns go on the shared session once every other check is done with it, and a session the garbage poisoned
    // is given back and replaced (a start), not judged on.
    expect(statuses(poisoned.report)).toEqual(statuses(clean.report));
    expect(poisoned.starts).toBeGreaterThan(clean.starts);
    // A check whose input kills the lent server fails for it alone: the loss is no loss of the run's shared server.
    const crashed = statuses(crashing.report);
    expect(crashed['base/robustness/malformed-json']).toBe('fail');
    expect(crashed['lifecycle/process/alive']).toBe('pass');
    expect(crashed['lifecycle/shutdown/stdin-close']).toBe('pass');
  });

  it('on the stateless wire the scratch turns take the second connection once its checks are done: no start of their own', async () => {
    const stateless = ['--revision', '2026-07-28', '--env', 'MCP_REVISION=2026-07-28'];
    const [clean, crashing] = await Promise.all([counted(stateless), counted(stateless, 'crash-on-malformed')]);
    expect(clean.report.summary).toMatchObject({ fail: 0, warn: 0, error: 0 });
    // The shared session, the second connection, and the two checks that need a process of their own.
    expect(clean.starts).toBe(4);
    const second = clean.report.processes?.servers?.find((s) => s.for.endsWith('second connection'));
    expect(second?.checks).toEqual(
      expect.arrayContaining(['stateless/lists/per-connection', 'base/robustness/malformed-json']),
    );
    // A check whose input kills it fails for that alone, and the turns after go on in a session started in its place.
    const crashed = statuses(crashing.report);
    expect(crashed['base/robustness/malformed-json']).toBe('fail');
    expect(crashed['lifecycle/process/alive']).toBe('pass');
    expect(crashing.report.processes?.servers?.map((s) => s.for)).toContain(
      'scratch session replacing a session base/robustness/malformed-json killed',
    );
  });

  it("none when a case file of the user's is malformed: it is read before the probe's server starts", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpc-cases-'));
    await writeFile(join(dir, 'bad.yaml'), 'id: mine/bad\ntitle: [unclosed\n');
    const log = join(dir, 'starts');
    const run = await runCli([
      '--cases',
      dir,
      '--env',
      `START_LOG=${log}`,
      '--',
      'sh',
      '-c',
      `echo x >> "$START_LOG"; exec "${process.execPath}" "${FAULTY}"`,
    ]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/bad\.yaml/);
    expect(existsSync(log)).toBe(false);
  });

  it("the auto probe's frames are judged with the run's: a malformed answer to server/discover fails schema/errors", async () => {
    const auto = await counted(['--only', 'schema/errors', '--only', 'ping/respond'], 'bad-discover-error');
    const errors = auto.report.checks.find((c) => c.id === 'schema/errors')!;
    expect(errors.status).toBe('fail');
    expect(errors.transcript?.map((e) => e.text)).toEqual([expect.stringMatching(/"code":"-32601"/)]);
    // Asked for one revision, the run sends no server/discover, and sees no error answer at all.
    const fixed = await counted(
      ['--only', 'schema/errors', '--only', 'ping/respond', '--revision', '2025-11-25'],
      'bad-discover-error',
    );
    expect(fixed.report.checks.find((c) => c.id === 'schema/errors')).toMatchObject({
      status: 'skip',
      message: expect.stringMatching(/^no .* was seen during the run$/),
    });
  });
});

/** A stand-in session. */
const fake = (n: number) => ({ n, alive: true, answer: 'result', closed: false, close: async () => {} });
type Fake = ReturnType<typeof fake>;

describe('scratch sessions', () => {
  const setup = (count: number, health?: (s: Fake) => Promise<string>) => {
    const opened: Fake[] = [];
    const lanes = new ScratchSessions(
      async () => {
        const s = fake(opened.length + 1);
        s.close = async () => void (s.closed = true);
        opened.push(s);
        return s as unknown as Session;
      },
      count,
      health && ((s) => health(s as unknown as Fake)),
    );
    const use = (work: (s: Fake) => Promise<string> | string) => (session: () => Promise<Session>) =>
      session().then((s) => work(s as unknown as Fake));
    return { opened, lanes, use };
  };
  const kept = (r: string) => r !== 'fail';

  it('are opened at once, one per lane, and each serves one check at a time, in the order they came', async () => {
    const { opened, lanes, use } = setup(2);
    expect(opened).toHaveLength(2);
    const log: string[] = [];
    const busy = new Set<number>();
    const check = (name: string) =>
      lanes.turn(
        use(async (s) => {
          expect(busy.has(s.n)).toBe(false); // nobody else on this session now
          busy.add(s.n);
          log.push(`${name}@${s.n}`);
          await new Promise((r) => setTimeout(r, 5));
          busy.delete(s.n);
          return 'pass';
        }),
        kept,
      );
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map(check));
    expect(log).toEqual(['a@1', 'b@2', 'c@1', 'd@2', 'e@1']);
    expect(opened).toHaveLength(2);
  });

  it('stop after a check they do not keep, not after one that did not use its session: the checks after run alone', async () => {
    const { opened, lanes, use } = setup(1);
    expect(await lanes.turn(() => Promise.resolve('fail'), kept)).toEqual({
      result: 'fail',
      untouched: true,
      killed: false,
      checked: false,
    }); // did not use the session
    expect(await lanes.turn(() => Promise.reject(new Error('harness')), kept).catch((e: Error) => e.message)).toBe(
      'harness',
    );
    expect(
      await lanes.turn(
        use((s) => `pass@${s.n}`),
        kept,
      ),
    ).toEqual({ result: 'pass@1', untouched: true, killed: false, checked: false });
    expect(
      await lanes.turn(
        use(() => 'fail'),
        kept,
      ),
    ).toEqual({ result: 'fail', untouched: false, killed: false, checked: false });
    expect(
      await lanes.turn(
        use(() => 'pass'),
        kept,
      ),
    ).toBeUndefined();
    expect(opened).toHaveLength(1);
  });

  it(`open another session in place of one a check's input killed, ${MAX_REPLACED} times at most: then the checks after run alone`, async () => {
    const dead = setup(1);
    // A check that failed because its input killed the session: the turns go on, on a new session.
    const kill = dead.use((s) => ((s.alive = false), 'fail'));
    for (let i = 0; i <= MAX_REPLACED; i++)
      expect(await dead.lanes.turn(kill, kept)).toEqual({
        result: 'fail',
        untouched: true,
        killed: true,
        checked: false,
      });
    expect(dead.opened).toHaveLength(1 + MAX_REPLACED);
    expect(
      await dead.lanes.turn(
        dead.use(() => 'pass'),
        kept,
      ),
    ).toBeUndefined();
  });
});

describe('scratch sessions with a health request', () => {
  it('replace a session whose answer changed after a turn, and say each turn began on one checked', async () => {
    const opened: Fake[] = [];
    const lanes = new ScratchSessions(
      async () => {
        const s = fake(opened.length + 1);
        s.close = async () => void (s.closed = true);
        opened.push(s);
        return s as unknown as Session;
      },
      1,
      async (s) => (s as unknown as Fake).answer,
    );
    const use = (work: (s: Fake) => string) => (session: () => Promise<Session>) =>
      session().then((s) => work(s as unknown as Fake));
    const keep = (r: string) => r !== 'fail';
    // A warning that leaves the session answering as before: the next turn goes on there.
    expect(
      await lanes.turn(
        use(() => 'warn'),
        keep,
      ),
    ).toEqual({
      result: 'warn',
      untouched: true,
      killed: false,
      checked: true,
    });
    // An input that leaves it answering otherwise (poisoned, alive): closed, and the next turn gets a new one.
    expect(
      await lanes.turn(
        use((s) => ((s.answer = 'error -32603'), 'warn')),
        keep,
      ),
    ).toEqual({ result: 'warn', untouched: false, killed: false, checked: true });
    expect(opened[0].closed).toBe(true);
    expect(
      await lanes.turn(
        use((s) => `pass@${s.n}`),
        keep,
      ),
    ).toEqual({
      result: 'pass@2',
      untouched: true,
      killed: false,
      checked: true,
    });
    expect(opened).toHaveLength(2);
  });
});

describe('a session serving checks in turn', () => {
  it('never gives a request of its own an id a caller chose before', async () => {
    const transcript = new Transcript();
    const plan = {
      description: 'reference',
      command: process.execPath,
      args: [join(REFERENCE, 'server.mjs')],
      cwd: ROOT,
      env: {},
    };
    const session = new Session(await startStdio(plan, transcript), transcript, 10_000);
    try {
      await Promise.all(session.requestRaw('{"jsonrpc":"2.0","id":2}', [2], '(raw line)'));
      await session.request('ping', undefined, { id: 3 });
      for (let i = 0; i < 3; i++) await session.request('ping');
      const ids = transcript.entries
        .filter((e) => e.dir === 'send')
        .map((e) => (JSON.parse(e.text) as { id: unknown }).id);
      expect(ids).toEqual([2, 3, 1, 4, 5]);
    } finally {
      await session.close();
    }
  });
});
