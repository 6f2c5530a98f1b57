import { describe, expect, it } from 'vitest';
import { callableTools } from '../../src/generate/tool-policy.js';

const TOOLS = [
  { name: 'read', annotations: { readOnlyHint: true } },
  { name: 'write', annotations: { readOnlyHint: false, destructiveHint: true } },
  { name: 'plain' },
  { name: 'task-only', annotations: { readOnlyHint: true }, execution: { taskSupport: 'required' } },
];
const names = (r: ReturnType<typeof callableTools>) => ({
  callable: r.callable.map((t) => t.name),
  skipped: r.skipped.map((s) => s.tool),
});

describe('which tools generated calls may reach', () => {
  it('safe (the default): only tools annotated readOnlyHint: true, and allowed ones', () => {
    expect(names(callableTools(TOOLS, { mode: 'safe', allow: [] }))).toEqual({
      callable: ['read'],
      skipped: ['write', 'plain', 'task-only'],
    });
    expect(names(callableTools(TOOLS, { mode: 'safe', allow: ['plain'] }))).toEqual({
      callable: ['read', 'plain'],
      skipped: ['write', 'task-only'],
    });
  });

  it('says why a tool is left alone, and how to allow it', () => {
    const { skipped } = callableTools(TOOLS, { mode: 'safe', allow: [] });
    expect(skipped.find((s) => s.tool === 'write')?.reason).toBe(
      'not annotated readOnlyHint: true (allow it with --allow-tool write, or --tool-calls all)',
    );
    expect(skipped.find((s) => s.tool === 'task-only')?.reason).toBe('it can only be called as a task');
  });

  it('all: every tool but task-only ones; none: no tool, allowed or not', () => {
    expect(names(callableTools(TOOLS, { mode: 'all', allow: [] })).callable).toEqual(['read', 'write', 'plain']);
    const none = callableTools(TOOLS, { mode: 'none', allow: ['read'] });
    expect(none.callable).toEqual([]);
    expect(new Set(none.skipped.map((s) => s.reason))).toEqual(new Set(['tool calls are off (--tool-calls none)']));
  });
});
