import { describe, expect, it } from 'vitest';
import { LineSplitter, type RawLine } from '../src/transport/line-splitter.js';

/** A splitter (lines over 100 bytes cut to a 4-byte prefix) that records its lines. */
function splitter() {
  const lines: string[] = [];
  const s = new LineSplitter(100, 4, (l: RawLine) => lines.push(`${l.data.toString()}${l.overflow ? `…(${l.bytes})` : ''}${l.partial ? ' (partial)' : ''}`));
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
});
