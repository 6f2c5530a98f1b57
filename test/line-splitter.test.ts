import { describe, expect, it } from 'vitest';
import { LineSplitter, type RawLine } from '../src/transport/line-splitter.js';

/** A splitter (lines over 100 bytes cut to a 4-byte prefix) that records its lines. */
function splitter() {
  const lines: string[] = [];
  const s = new LineSplitter(100, 4, (l: RawLine) =>
    lines.push(`${l.data.toString()}${l.overflow ? `…(${l.bytes})` : ''}${l.partial ? ' (partial)' : ''}`),
  );
  return { s, lines };
}
const bytes = (text: string) => Buffer.from(text);

describe('splitting a stream into lines', () => {
  it('cuts on newlines across chunks, keeps a prefix of an over-long line, and emits a partial line at the end', () => {
    const { s, lines } = splitter();
    s.push(bytes('{"a":1}\n{"b"'));
    s.push(bytes(':2}\n'));
    s.push(bytes(`${'x'.repeat(150)}\nlast`));
    s.end();
    expect(lines).toEqual(['{"a":1}', '{"b":2}', 'xxxx…(150)', 'last (partial)']);
  });

  it('joins a large line whole, in a buffer of its own mapping size, so that freeing it gives its memory back', () => {
    const lines: RawLine[] = [];
    const s = new LineSplitter(16 * 1024 * 1024, 4, (l) => lines.push(l));
    const chunk = Buffer.alloc(64 * 1024, 'y');
    for (let i = 0; i < 40; i++) s.push(chunk);
    s.push(bytes('z\nnext\n'));
    expect(lines.map((l) => [l.bytes, l.data.length, l.overflow])).toEqual([
      [40 * 64 * 1024 + 1, 40 * 64 * 1024 + 1, false],
      [4, 4, false],
    ]);
    expect(lines[0]!.data.equals(Buffer.concat([Buffer.alloc(40 * 64 * 1024, 'y'), bytes('z')]))).toBe(true);
    expect(lines[0]!.data.buffer.byteLength).toBeGreaterThanOrEqual(32 * 1024 * 1024);
  });
});
