// What a client-run scenario is, as data: what the test server offers and does. The scenarios themselves are in
// src/checks/client-side/scenarios.ts.

export interface ScenarioTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** What a call does: `sum` adds `a` and `b`; `ask` asks the client (ping, then each capability it declared) before it answers; `elicit` asks for a form with defaults; `sse-drop` closes its SSE stream after a primed event; `input-required` answers with an input request and requestState (2026-07-28), `input-required-no-state` with an input request alone, until the retry brings inputResponses; `no-result-type` answers without resultType (as an earlier revision would); `text` answers a fixed text; `echo` answers its `schema` argument as JSON text; `hang` never answers (until the client cancels it). */
  does:
    | 'sum'
    | 'ask'
    | 'elicit'
    | 'sse-drop'
    | 'input-required'
    | 'input-required-no-state'
    | 'no-result-type'
    | 'text'
    | 'echo'
    | 'hang';
  /** Header declarations of 2026-07-28 (`x-mcp-header`) live in inputSchema; nothing else here. */
}

export interface Scenario {
  /** The official suite's name where it has one. */
  name: string;
  description: string;
  /** The revisions it runs at. */
  revisions: readonly string[];
  /** MCP_CONFORMANCE_CONTEXT. */
  context: Record<string, unknown>;
  tools: ScenarioTool[];
  /** What the scenario asks the client to do, for the reason a check skips when the client did not. */
  asks?: string;
  /** 2026-07-28: the first request is refused with -32022 (unsupported protocol version). */
  refuseFirstVersion?: boolean;
  /** A `$ref` to this path of the test server's origin sits in a tool's inputSchema: fetching it is recorded. */
  canaryPath?: string;
  /** A scenario about one transport alone (a dropped SSE stream, HTTP headers): not run over the other. */
  transport?: 'http';
  /** Up to 2025-11-25: the server ends the session once the client sent notifications/initialized (404 after). */
  expireSession?: boolean;
}
