// Which tools a run may call (ARCHITECTURE.md, "Safety of tool calls"): a conformance run must never damage the user's system.
import type { Item } from '../discovery/profile.js';

/** all: every tool (for sandboxes); safe: tools annotated readOnlyHint: true and allowed ones; none: no tool. */
export const TOOL_CALL_MODES = ['all', 'safe', 'none'] as const;
export type ToolCallMode = (typeof TOOL_CALL_MODES)[number];

export interface ToolCallPolicy {
  mode: ToolCallMode;
  /** Tools the user allowed by name (--allow-tool), called in `safe` mode too. */
  allow: readonly string[];
}

export interface SkippedTool {
  tool: string;
  reason: string;
}

/** The listed tools a generated call may reach (`asTask`: a task-augmented one), and every other one with the reason it is left alone. */
export function callableTools(
  tools: Item[],
  policy: ToolCallPolicy,
  asTask = false,
): { callable: Item[]; skipped: SkippedTool[] } {
  const callable: Item[] = [];
  const skipped: SkippedTool[] = [];
  for (const tool of tools) {
    const name = String(tool.name);
    const annotations = tool.annotations as { readOnlyHint?: unknown } | undefined;
    const execution = tool.execution as { taskSupport?: unknown } | undefined;
    if (policy.mode === 'none') skipped.push({ tool: name, reason: 'tool calls are off (--tool-calls none)' });
    // A task-only tool answers a plain call with an error by design (2025-11-25 tasks).
    else if (!asTask && execution?.taskSupport === 'required')
      skipped.push({ tool: name, reason: 'it can only be called as a task' });
    else if (policy.mode === 'all' || policy.allow.includes(name) || annotations?.readOnlyHint === true)
      callable.push(tool);
    else
      skipped.push({
        tool: name,
        reason: `not annotated readOnlyHint: true (allow it with --allow-tool ${name}, or --tool-calls all)`,
      });
  }
  return { callable, skipped };
}
