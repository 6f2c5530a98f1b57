import { afterEach, describe, expect, it } from 'vitest';
import { handshake } from '../src/discovery/discover.js';
import { MAX_RESTARTS, RESTART_BACKOFF_MS, SharedServer } from '../src/run/shared-server.js';
import { Session, SessionClosed } from '../src/session/session.js';
import { Transcript } from '../src/transcript.js';
import { isAlive } from '../src/transport/process-tree.js';
import { startStdio } from '../src/transport/stdio.js';
import { ROOT } from './helpers.js';
import { ZOO_SERVER } from './fixtures/servers/zoo/zoo.mjs';

const sessions: Session[] = [];

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

/** When each server of crashAfter was started (performance.now()). */
const spawned: number[] = [];

/** A zoo server that answers initialize and dies on the request after the `n`th. */
const crashAfter = (n: number) => async () => {
  spawned.push(performance.now());
  const transcript = new Transcript();
  const plan = {
    description: 'crash-after',
    command: process.execPath,
    args: [ZOO_SERVER],
    cwd: ROOT,
    env: { ZOO_MODE: 'crash-after', ZOO_N: String(n) },
  };
  const session = new Session(await startStdio(plan, transcript), transcript, 600_000);
  sessions.push(session);
  return session;
};

describe('the shared server of a run', () => {
  it('is restarted after a crash: the request in flight fails, the next ones go to a new, initialized process', async () => {
    const open = crashAfter(2);
    const first = await open();
    await handshake(first, '2025-11-25');
    const shared = new SharedServer(first, open, '2025-11-25');
    expect((await shared.request('ping')).message.result).toEqual({});
    const err = (await shared.request('ping').catch((e: unknown) => e)) as SessionClosed;
    expect(err).toBeInstanceOf(SessionClosed);
    expect(err.message).toBe(
      'server closed the connection before answering ping: process exited (code 139, signal null)',
    );
    expect(err.stderr).toMatch(/segfault after 2 requests$/);
    expect(shared.losses).toEqual([
      {
        why: 'process exited (code 139, signal null)',
        pending: ['ping (id 3)'],
        stderr: err.stderr,
        transcript: expect.any(Array),
      },
    ]);
    expect(shared.losses[0].transcript.map((e) => e.text)).toEqual([
      expect.stringMatching(/^spawn /),
      expect.stringMatching(/^zoo-server: mode crash-after/),
      expect.stringContaining('"id":3'),
      expect.stringMatching(/segfault/),
      'exit code 139 signal none',
    ]);

    // The restarted server was initialized (its initialize is its first request) and answers.
    expect((await shared.request('ping')).message.result).toEqual({});
    expect(shared.session).not.toBe(first);
    expect(shared.session.revision).toBe('2025-11-25');
    expect(shared.session.transcript.entries.find((e) => e.dir === 'send')?.text).toMatch(/"method":"initialize"/);
  });

  it(`is restarted at most ${MAX_RESTARTS} times, at growing intervals: after that, requests fail at once with the last loss`, async () => {
    spawned.length = 0;
    const open = crashAfter(1);
    const first = await open();
    await handshake(first, '2025-11-25');
    const shared = new SharedServer(first, open, '2025-11-25');
    const errors: string[] = [];
    const failed: number[] = [];
    for (let i = 0; i < MAX_RESTARTS + 3; i++) {
      errors.push(
        await shared.request('ping').then(
          () => 'answered',
          (e: Error) => e.message,
        ),
      );
      failed.push(performance.now());
    }
    expect(errors).toEqual(
      Array(MAX_RESTARTS + 3).fill(
        'server closed the connection before answering ping: process exited (code 139, signal null)',
      ),
    );
    expect(shared.losses).toHaveLength(1 + MAX_RESTARTS);
    expect(sessions).toHaveLength(1 + MAX_RESTARTS);
    // From a loss to the next start: the first restart comes at once; the second after RESTART_BACKOFF_MS, the third after twice that.
    // `failed` is noted when the test hears of the loss, a turn after the backoff's timer started: a few ms of slack.
    const SLACK_MS = 5;
    expect(spawned[2]! - failed[1]!).toBeGreaterThanOrEqual(RESTART_BACKOFF_MS - SLACK_MS);
    expect(spawned[3]! - failed[2]!).toBeGreaterThanOrEqual(2 * RESTART_BACKOFF_MS - SLACK_MS);
    // Closing on purpose after the last loss neither restarts nor counts as a loss.
    const { exit } = await shared.close();
    expect(exit.how).toBe('crashed');
    expect(shared.losses).toHaveLength(1 + MAX_RESTARTS);
    expect(sessions.map((s) => isAlive((s.transport as { pid?: number }).pid!))).toEqual(
      Array(1 + MAX_RESTARTS).fill(false),
    );
  });
});
