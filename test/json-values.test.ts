// Complete JSON values cut from a body as it arrives (src/transport/json-values.ts).
import { describe, expect, it } from 'vitest';
import { JsonValues } from '../src/transport/json-values.js';

describe('JsonValues', () => {
  it('hands out each object as soon as it closes, across pieces, strings with brackets and escapes included', () => {
    const v = new JsonValues();
    expect(v.push('{"a":"}{\\"",')).toEqual([]);
    expect(v.push('"b":[1,{}]}\n{"c"')).toEqual(['{"a":"}{\\"","b":[1,{}]}']);
    expect(v.push(':2}\n')).toEqual(['{"c":2}']);
    expect(v.rest()).toBe('');
  });
  it('hands out a pretty-printed object once, when it is whole', () => {
    const v = new JsonValues();
    const text = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x' }] } }, null, 2);
    expect([...text].flatMap((c) => v.push(c))).toEqual([text]);
  });
  it('stops at top-level text that is no object or array, and keeps it for rest()', () => {
    const v = new JsonValues();
    expect(v.push('[1] accepted {"x":1}')).toEqual(['[1]']);
    expect(v.push(' more')).toEqual([]);
    expect(v.rest()).toBe(' accepted {"x":1} more');
  });
  it('keeps an unfinished value for rest()', () => {
    const v = new JsonValues();
    expect(v.push('{"a":1}{"b":')).toEqual(['{"a":1}']);
    expect(v.rest()).toBe('{"b":');
  });
});
