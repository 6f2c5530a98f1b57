// client-side/stdio: the client's side of the stdio transport, read from what it wrote on the server's stdin (each
// start of `{server}` on its own) and how it ended that server.
import { type Outcome, fail, pass, skip, warn } from '../kit/check.js';
import { type ClientCheckDef, type ScenarioRecord, excerpt, where } from '../kit/client-check.js';
import { requirement } from '../kit/requirement.js';

const notStarted = (r: ScenarioRecord) =>
  skip(`${where(r)}: the client did not start the server${r.scenario.asks ? ` (asked to ${r.scenario.asks})` : ''}`);

export const CLIENT_STDIO_CHECKS: ClientCheckDef[] = [
  {
    id: 'client-side/stdio/newline-delimited',
    title: "The client writes only newline-delimited JSON-RPC messages on the server's stdin",
    // 2025-11-25 Transports › stdio: "Messages are delimited by newlines, and MUST NOT contain embedded newlines." and
    // "The client MUST NOT write anything to the server's stdin that is not a valid MCP message." (Bytes that are not
    // JSON at all are client-side/frames/json's finding.)
    requirement: requirement(
      'client-side.stdio.newline-delimited',
      'MUST',
      'basic/transports#stdio',
      "On the server's stdin the client writes one message per line, each ended by a newline: no message spread over lines, no blank lines or other bytes between messages",
    ),
    transport: 'stdio',
    judge: (r): Outcome => {
      const s = r.stdio;
      if (!s) return notStarted(r);
      if (s.bytes === 0) return skip(`${where(r)}: the client wrote nothing on the server's stdin`);
      const split = s.multiline[0];
      if (split)
        return fail(
          `${where(r)}: a message was written across ${split.lines} lines (embedded newlines)${s.multiline.length > 1 ? `, and ${s.multiline.length - 1} more` : ''}`,
          {
            expected: 'one message per line',
            actual: r.conv.frames.find((f) => f.seq === split.seq)?.text.slice(0, 500),
            transcript: excerpt(r, [split.seq]),
          },
        );
      const stray = s.strays[0];
      if (stray)
        return fail(
          `${where(r)}: ${stray.why} on the server's stdin${s.strays.length > 1 ? ` (${s.strays.length} such)` : ''}`,
          { expected: 'only messages, each ended by a newline', actual: JSON.stringify(stray.text) },
        );
      if (s.invalidUtf8 > 0) return fail(`${where(r)}: ${s.invalidUtf8} line(s) on stdin are not valid UTF-8`);
      return pass(`${where(r)}: ${s.bytes} bytes, every message on a line of its own`);
    },
  },
  {
    id: 'client-side/stdio/shutdown-closes-stdin',
    title: "The client ends its server by closing the server's stdin first",
    // 2025-11-25 Lifecycle › Shutdown › stdio: "For the stdio transport, the client SHOULD initiate shutdown by:
    // First, closing the input stream to the child process (the server); Waiting for the server to exit, or sending
    // SIGTERM if the server does not exit within a reasonable time; Sending SIGKILL if the server does not exit within
    // a reasonable time after SIGTERM". The test server exits as soon as its stdin closes, so a signal is never needed.
    requirement: requirement(
      'client-side.stdio.shutdown-closes-stdin',
      'SHOULD',
      'basic/lifecycle#stdio',
      "The client shuts its stdio server down by closing the server's stdin first, and signals it (SIGTERM, then SIGKILL) only when it did not exit after that",
    ),
    transport: 'stdio',
    judge: (r): Outcome => {
      const s = r.stdio;
      if (!s) return notStarted(r);
      const signal = s.signals[0];
      switch (s.end) {
        case 'stdin':
          return pass(`${where(r)}: stdin closed first; the server exited`);
        case 'signal':
          return warn(`${where(r)}: the server got ${signal?.signal} with its stdin still open`, {
            expected: 'stdin closed first, a signal only if the server did not exit',
            transcript: excerpt(r),
          });
        case 'killed':
          return r.exit.stopped
            ? skip(`${where(r)}: the client was stopped at the end of its budget before it ended the server`)
            : warn(`${where(r)}: the server was killed (no SIGTERM, stdin still open)`, { transcript: excerpt(r) });
        default:
          if (r.exit.stopped)
            return skip(`${where(r)}: the client was stopped at the end of its budget before it ended the server`);
          return warn(`${where(r)}: the client ended with the server's stdin still open; the run stopped the server`, {
            transcript: excerpt(r),
          });
      }
    },
  },
];
