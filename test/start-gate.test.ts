// Server starts wait their turn: one until the first start is measured, then one a core (heavy) or two (light).
import { describe, expect, it, vi } from 'vitest';
import { StartGate } from '../src/transport/start-gate.js';
import { Session, RequestTimeout } from '../src/session/session.js';
import { Transcript } from '../src/transcript.js';
import type { InboundLine, Transport } from '../src/transport/transport.js';

/** How many of `n` starts get in at once, the first having been measured at `firstMs`. */
async function admitted(gate: StartGate, n: number): Promise<{ inside: number; leaves: ((ms?: number) => void)[] }> {
  const leaves: ((ms?: number) => void)[] = [];
  for (let i = 0; i < n; i++) void gate.enter().then((leave) => leaves.push(leave));
  await new Promise(setImmediate);
  return { inside: leaves.length, leaves };
}

describe('the start gate', () => {
  it('lets one start in until a start is measured, then one a core for a heavy server', async () => {
    const gate = new StartGate(2);
    const first = await admitted(gate, 4);
    expect(first.inside).toBe(1);
    expect(gate.roomy).toBe(false);
    first.leaves[0](2000); // a heavy server: 2 s to its first line
    await new Promise(setImmediate);
    expect(first.leaves.length).toBe(3); // two cores, two starts at once
    expect(gate.width).toBe(2);
    expect(gate.roomy).toBe(false);
    // Giving a place back twice frees one place, not two.
    first.leaves[1]();
    first.leaves[1]();
    await new Promise(setImmediate);
    expect(first.leaves.length).toBe(4);
    expect(gate.allowance(10_000)).toBe(10_000);
  });

  it('a light server starts two a core, and may run its eras side by side', async () => {
    const gate = new StartGate(2);
    const { leaves } = await admitted(gate, 6);
    leaves[0](120);
    await new Promise(setImmediate);
    expect(leaves.length).toBe(5); // the first left: four of the five waiting got in
    expect(gate.roomy).toBe(true);
  });

  it('a slow starter gets a longer allowance: four times its first start, at least the one asked for', async () => {
    const gate = new StartGate(2);
    const [leave] = (await admitted(gate, 1)).leaves;
    leave(5000);
    expect(gate.allowance(10_000)).toBe(20_000);
    expect(gate.allowance(30_000)).toBe(30_000);
  });

  it('a start that never answered does not count as the measure', async () => {
    const gate = new StartGate(2);
    const { leaves } = await admitted(gate, 2);
    leaves[0](); // exited, or closed, before any line
    await new Promise(setImmediate);
    expect(gate.width).toBe(1);
    expect(leaves.length).toBe(2);
  });
});

/** A stdio-like transport that has not started until `start()`, and records what it was sent. */
function startingTransport(): { transport: Transport; start: () => void; answer: (line: object) => void } {
  let start!: () => void;
  const started = new Promise<void>((resolve) => (start = resolve));
  const listeners: ((line: InboundLine) => void)[] = [];
  const transcript = new Transcript();
  const transport: Transport = {
    kind: 'stdio',
    started,
    send: (text) => transcript.add('send', text),
    sendRaw: (text) => transcript.add('send', text),
    onLine: (l) => void listeners.push(l),
    onExit: () => {},
    exited: undefined,
    stderrTail: () => '',
    close: async () => ({ code: 0, signal: null, how: 'stdin-eof' }),
  };
  const answer = (json: object) =>
    listeners.forEach((l) => l({ entry: transcript.add('recv', JSON.stringify(json)), json }));
  return { transport, start, answer };
}

describe("a request's clock runs from its server's start", () => {
  it('no timeout while the server waits its turn to start; the full --timeout after it started', async () => {
    vi.useFakeTimers();
    try {
      const { transport, start } = startingTransport();
      const session = new Session(transport, new Transcript(), 1000);
      let settled: unknown;
      session.request('ping').then(
        (r) => (settled = r),
        (e: unknown) => (settled = e),
      );
      await vi.advanceTimersByTimeAsync(5000); // queued behind other starts: five timeouts' worth
      expect(settled).toBeUndefined();
      start();
      await vi.advanceTimersByTimeAsync(900);
      expect(settled).toBeUndefined();
      await vi.advanceTimersByTimeAsync(200);
      expect(settled).toBeInstanceOf(RequestTimeout);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an answer before the start settles the request as usual', async () => {
    const { transport, answer } = startingTransport();
    const session = new Session(transport, new Transcript(), 1000);
    const reply = session.request('ping');
    answer({ jsonrpc: '2.0', id: 1, result: {} });
    expect((await reply).message.result).toEqual({});
  });
});
