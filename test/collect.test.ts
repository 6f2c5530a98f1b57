import { runInNewContext } from 'node:vm';
import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { LargeLineCollector } from '../src/transport/collect.js';

describe('collecting after large lines', () => {
  it('collects once enough large lines were handed on, on a later turn, once for all those of one turn', async () => {
    let collections = 0;
    let obtained = 0;
    const collector = new LargeLineCollector(100, () => (obtained++, () => void collections++));
    collector.handedOn(60);
    await turn();
    expect([obtained, collections]).toEqual([0, 0]);
    collector.handedOn(60);
    collector.handedOn(60);
    expect(collections).toBe(0);
    await turn();
    expect([obtained, collections]).toEqual([1, 1]);
    // The count starts again after a collection.
    collector.handedOn(60);
    await turn();
    expect(collections).toBe(1);
    collector.handedOn(60);
    await turn();
    expect([obtained, collections]).toEqual([1, 2]);
  });

  it('goes on without collecting when no collector can be had', async () => {
    let asked = 0;
    const collector = new LargeLineCollector(10, () => void asked++);
    collector.handedOn(20);
    collector.handedOn(20);
    await turn();
    expect(asked).toBe(1);
  });

  it('collects at once for a line about to be copied, from COLLECT_AFTER_BYTES on only', () => {
    let collections = 0;
    const collector = new LargeLineCollector(100, () => () => void collections++);
    collector.copying(99);
    expect(collections).toBe(0);
    collector.copying(100);
    collector.copying(500);
    expect(collections).toBe(2);
  });

  it('frees the memory of dead Buffers before copying() returns', () => {
    const before = process.memoryUsage().arrayBuffers;
    (() => Buffer.alloc(64 * 1024 * 1024, 1))();
    new LargeLineCollector(1).copying(1);
    expect(process.memoryUsage().arrayBuffers).toBeLessThan(before + 32 * 1024 * 1024);
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });

  it('really collects garbage, and leaves no gc() to the other contexts of the process', async () => {
    const collected: string[] = [];
    const registry = new FinalizationRegistry((name: string) => collected.push(name));
    (() => registry.register({ payload: 'x'.repeat(1000) }, 'dead'))();
    new LargeLineCollector(1).handedOn(1);
    for (let i = 0; i < 20 && collected.length === 0; i++) await turn();
    expect(collected).toEqual(['dead']);
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
