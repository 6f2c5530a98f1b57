import { describe, expect, it } from 'vitest';
import { bounded, EVIDENCE_STRING_CAP } from '../src/json.js';
import { describeReply } from '../src/checks/kit/check.js';
import type { Reply } from '../src/session/session.js';

describe('evidence kept from a reply', () => {
  it('cuts long strings to a prefix with their byte count, and keeps everything else as it was', () => {
    const long = 'é'.repeat(EVIDENCE_STRING_CAP + 10);
    const kept = bounded({ a: [1, null, true, 'short', { b: long }], c: { code: -32602 } }) as {
      a: [number, null, boolean, string, { b: string }];
      c: unknown;
    };
    expect(kept.a.slice(0, 4)).toEqual([1, null, true, 'short']);
    expect(kept.a[4].b).toBe(`${'é'.repeat(EVIDENCE_STRING_CAP)}… (${Buffer.byteLength(long)} bytes)`);
    expect(kept.c).toEqual({ code: -32602 });
  });

  it('describeReply keeps the result, not a multi-megabyte payload inside it', () => {
    const reply = {
      message: { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25', instructions: 'x'.repeat(1 << 20) } },
    } as unknown as Reply;
    const described = describeReply(reply) as { result: { protocolVersion: string; instructions: string } };
    expect(described.result.protocolVersion).toBe('2025-11-25');
    expect(described.result.instructions).toMatch(/^x{4096}… \(1048576 bytes\)$/);
  });
});
