import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import _Ajv2020 from 'ajv/dist/2020.js';
import _addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult, Report, Status } from '../src/schema/generated/report.js';
import { renderConsole } from '../src/report/console.js';
import { renderHtml } from '../src/report/html.js';
import { renderJunit, xmlAttr, xmlText } from '../src/report/junit.js';
import { formatEntry, formatTranscript } from '../src/report/transcript-format.js';
import { hasErrors, hasFailures, summarize, verdict } from '../src/report/summary.js';
import { visible } from '../src/report/text.js';
import { unmetRequirement } from '../src/checks/cases/requires.js';
import { wrongRevision, wrongTransport } from '../src/checks/kit/check.js';
import { CREDENTIALS_FROM_ENVIRONMENT, clientOverOtherTransport, inapplicable } from '../src/skip-reason.js';
import { fakeCheck } from './helpers.js';
import { type WrittenReports, writeReports } from '../src/report/write.js';

const Ajv2020 = _Ajv2020.default;
const addFormats = _addFormats.default;

/** Strings a hostile server might send: markup, CDATA end, NUL, an ANSI colour, a lone surrogate, U+FFFF, a bidi override. */
const HOSTILE = '</failure>]]><script>alert(1)</script>\u0000\u001b[31mRED\u0007 \ud800 \uffff \u202e & "q" \'a\'';

function check(status: Status, over: Partial<CheckResult> = {}): CheckResult {
  const id = `tools/call/${status}-case`;
  return {
    id,
    title: `A ${status} check`,
    area: 'tools',
    status,
    level: status === 'warn' ? 'SHOULD' : 'MUST',
    requirement: {
      id: `tools.${status}`,
      level: status === 'warn' ? 'SHOULD' : 'MUST',
      spec: 'https://modelcontextprotocol.io/specification/2025-06-18/server/tools#calling-tools',
      text: 'The server answers tools/call for an unknown tool with an error.',
    },
    message: `${status} message ${HOSTILE}`,
    durationMs: 12.5,
    transcript: [
      { seq: 0, dir: 'event', t: 0, bytes: 5, text: 'spawn' },
      { seq: 1, dir: 'send', t: 1.2, bytes: 60, text: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}' },
      {
        seq: 2,
        dir: 'recv',
        t: 3.45,
        bytes: 9000,
        text: `{"jsonrpc":"2.0","id":1,"result":"${HOSTILE}`,
        truncated: true,
        sha256: '0123456789abcdef',
      },
      { seq: 3, dir: 'stderr', t: 4, bytes: 20, text: `log ${HOSTILE}\n#9 +1 ms ← forged` },
    ],
    ...over,
  };
}

const report: Report = {
  tool: { name: 'mcp-conformance', version: '0.1.0' },
  target: { description: './server', command: 'node', args: ['server.js'] },
  server: { name: `evil${HOSTILE}`, version: '1.0.0', protocolVersion: '2025-06-18', capabilities: { tools: {} } },
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1234,
  summary: { pass: 2, fail: 1, warn: 1, skip: 1, error: 1 },
  checks: [
    check('pass', { transcript: undefined }),
    check('fail', { expected: { error: { code: -32602 } }, actual: { result: { text: HOSTILE } } }),
    check('warn', { expected: 'a string', actual: 42 }),
    check('skip', { message: `tool calls disabled ${HOSTILE}`, transcript: [] }),
    check('error', { message: 'server exited with code 1' }),
    check('pass', { id: 'base/ping/answers', area: 'base', transcript: [] }),
  ],
};

/** A parsed XML element. */
interface Node {
  name: string;
  attrs: Record<string, string>;
  children: Node[];
  text: string;
}

const XML_CHAR = /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;
const NAME = /^[A-Za-z_][\w.-]*$/;

/** Decode the five predefined entities and character references; throw on anything else. */
function decode(raw: string, where: string): string {
  if (raw.includes('<')) throw new Error(`raw < in ${where}`);
  return raw.replace(/&([^;]*);?/g, (m, ref: string) => {
    if (!m.endsWith(';')) throw new Error(`unterminated & in ${where}`);
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (ref in named) return named[ref];
    const code = /^#x[0-9a-f]+$/i.test(ref)
      ? parseInt(ref.slice(2), 16)
      : /^#\d+$/.test(ref)
        ? Number(ref.slice(1))
        : NaN;
    const char = Number.isNaN(code) ? '' : String.fromCodePoint(code);
    if (!char || !XML_CHAR.test(char)) throw new Error(`bad reference &${ref}; in ${where}`);
    return char;
  });
}

/** A minimal strict XML reader: one root, balanced tags, quoted unique attributes, escaped text, legal characters. */
function parseXml(xml: string): Node {
  if (!XML_CHAR.test(xml)) throw new Error('character forbidden by XML 1.0');
  let i = 0;
  if (xml.startsWith('<?xml')) i = xml.indexOf('?>') + 2;
  const root: Node = { name: '#document', attrs: {}, children: [], text: '' };
  const stack: Node[] = [root];
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const text = xml.slice(i, lt === -1 ? xml.length : lt);
    if (text.includes(']]>')) throw new Error(']]> in text');
    stack[stack.length - 1].text += decode(text, 'text');
    if (lt === -1) break;
    const gt = xml.indexOf('>', lt);
    if (gt === -1) throw new Error('unclosed tag');
    const tag = xml.slice(lt + 1, gt);
    i = gt + 1;
    if (tag.startsWith('/')) {
      const open = stack.pop()!;
      if (open.name !== tag.slice(1) || stack.length === 0) throw new Error(`</${tag.slice(1)}> closes <${open.name}>`);
      continue;
    }
    const selfClosing = tag.endsWith('/');
    const body = selfClosing ? tag.slice(0, -1) : tag;
    const name = body.split(/[\s]/, 1)[0];
    if (!NAME.test(name)) throw new Error(`bad element name ${name}`);
    const node: Node = { name, attrs: {}, children: [], text: '' };
    let rest = body.slice(name.length);
    while (rest.trim()) {
      const m = /^\s+([A-Za-z_][\w.-]*)="([^"]*)"/.exec(rest);
      if (!m) throw new Error(`bad attributes in <${name}>: ${rest.slice(0, 40)}`);
      if (m[1] in node.attrs) throw new Error(`duplicate attribute ${m[1]}`);
      node.attrs[m[1]] = decode(m[2], `attribute ${m[1]}`);
      rest = rest.slice(m[0].length);
    }
    const parent = stack[stack.length - 1];
    if (parent === root && root.children.length > 0) throw new Error('more than one root element');
    parent.children.push(node);
    if (!selfClosing) stack.push(node);
  }
  if (stack.length !== 1) throw new Error(`unclosed <${stack[stack.length - 1].name}>`);
  if (root.text.trim() || root.children.length !== 1) throw new Error('content outside the root element');
  return root.children[0];
}

const all = (node: Node, name: string): Node[] =>
  node.children.flatMap((c) => (c.name === name ? [c, ...all(c, name)] : all(c, name)));

let dir: string;
let paths: WrittenReports;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-report-'));
  paths = await writeReports(report, join(dir, 'nested', 'reports'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('summary', () => {
  it('counts statuses and separates failures from harness errors', () => {
    const summary = summarize(report.checks);
    expect(summary).toEqual({ pass: 2, fail: 1, warn: 1, skip: 1, error: 1 });
    expect(hasFailures(summary)).toBe(true);
    expect(hasErrors(summary)).toBe(true);
    expect(verdict(report)).toBe('fail');
    expect(verdict({ checks: report.checks.filter((c) => c.status !== 'fail') })).toBe('error');
    expect(verdict({ checks: report.checks.filter((c) => c.status === 'warn' || c.status === 'pass') })).toBe('pass');
  });
});

describe('report.json', () => {
  it('is pretty JSON that validates against schema/report.schema.json and round-trips', async () => {
    const text = await readFile(paths.json, 'utf8');
    expect(text.startsWith('{\n  "tool"')).toBe(true);
    const schema = JSON.parse(await readFile(new URL('../schema/report.schema.json', import.meta.url), 'utf8'));
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictSchema: false });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    const parsed: unknown = JSON.parse(text);
    expect(validate(parsed), ajv.errorsText(validate.errors)).toBe(true);
    // A lone surrogate is written as an escape, and comes back unchanged.
    expect(text).toContain('\\ud800');
    expect(parsed).toEqual({ ...JSON.parse(JSON.stringify(report)), runId: expect.stringMatching(/^[\w-]{36}$/) });
  });

  it('carries the run id that junit.xml, index.html and badge.svg name, so a reader can tell the files belong together', async () => {
    const { runId } = JSON.parse(await readFile(paths.json, 'utf8')) as { runId: string };
    const junit = parseXml(await readFile(paths.junit, 'utf8'));
    const properties = all(junit, 'property').filter((p) => p.attrs.name === 'mcp-conformance.run-id');
    expect(properties.map((p) => p.attrs.value)).toEqual(junit.children.map(() => runId));
    expect(await readFile(paths.html, 'utf8')).toContain(`<meta name="mcp-conformance-run-id" content="${runId}">`);
    expect(await readFile(paths.badgeSvg, 'utf8')).toContain(`<!-- mcp-conformance run ${runId} -->`);
    // A second write is a new run with its own id; a saved report rendered again keeps its id.
    const again = await writeReports(report, join(dir, 'again'));
    expect(JSON.parse(await readFile(again.json, 'utf8')).runId).not.toBe(runId);
    const rerendered = await writeReports({ ...report, runId }, join(dir, 'again'));
    expect(JSON.parse(await readFile(rerendered.json, 'utf8')).runId).toBe(runId);
  });
});

describe('junit.xml', () => {
  it('is well-formed XML with no forbidden characters', async () => {
    const xml = await readFile(paths.junit, 'utf8');
    expect(() => parseXml(xml)).not.toThrow();
    expect(xml).not.toMatch(/[\u0000\u0007\u001b\uffff]|[\ud800-\udfff]/);
    expect(xml).not.toContain('<script>');
  });

  it.skipIf(!hasXmllint())('passes xmllint', () => {
    expect(() => execFileSync('xmllint', ['--noout', paths.junit], { stdio: 'pipe' })).not.toThrow();
  });

  it('has one testsuite per area and honest counts (warn is not a failure)', async () => {
    const root = parseXml(await readFile(paths.junit, 'utf8'));
    expect(root.name).toBe('testsuites');
    expect(root.attrs).toMatchObject({
      name: 'mcp-conformance',
      tests: '6',
      failures: '1',
      errors: '1',
      skipped: '1',
      time: '1.234',
    });
    const suites = root.children;
    expect(suites.map((s) => s.name)).toEqual(['testsuite', 'testsuite']);
    expect(suites.map((s) => s.attrs.name)).toEqual(['tools', 'base']);
    expect(suites[0].attrs).toMatchObject({ tests: '5', failures: '1', errors: '1', skipped: '1', time: '0.063' });
    expect(suites[1].attrs).toMatchObject({ tests: '1', failures: '0', errors: '0', skipped: '0' });

    const cases = all(root, 'testcase');
    expect(cases.map((c) => c.attrs.name)).toEqual(report.checks.map((c) => c.id));
    expect(cases.map((c) => c.attrs.classname)).toEqual(['tools', 'tools', 'tools', 'tools', 'tools', 'base']);
    expect(cases[0].attrs.time).toBe('0.013');
    const kinds = cases.map((c) => c.children.map((n) => n.name).join(','));
    expect(kinds).toEqual(['', 'failure,system-out', 'system-out', 'skipped', 'error,system-out', '']);
  });

  it('puts the triad in <failure>, WARNING in <system-out>, the reason in <skipped>', async () => {
    const root = parseXml(await readFile(paths.junit, 'utf8'));
    const [, fail, warn, skip, error] = all(root, 'testcase');
    const failure = fail.children[0];
    expect(failure.attrs.type).toBe('MUST');
    // The hostile string survives as text, minus the characters XML cannot hold.
    expect(failure.attrs.message).toBe(
      'fail message </failure>]]><script>alert(1)</script>[31mRED   \u202e & "q" \'a\'',
    );
    for (const part of [
      'tools.fail (MUST) https://modelcontextprotocol.io/',
      'unknown tool',
      '"code": -32602',
      '</failure>]]>',
    ]) {
      expect(failure.text).toContain(part);
    }
    expect(failure.text).toMatch(/expected:[\s\S]*actual:[\s\S]*transcript:/);
    expect(failure.text).toContain('#2 +3.5 ms ← {"jsonrpc"');
    expect(failure.text).toContain('… (9000 bytes, sha256 0123456789abcdef)');
    expect(fail.children[1].text).toContain('#0 +0 ms · spawn');
    expect(fail.children[1].text).toContain('#1 +1.2 ms → {"jsonrpc"');
    // The forged line stays inside entry #3.
    expect(fail.children[1].text).toContain('⏎#9 +1 ms ← forged');

    expect(warn.children.map((c) => c.name)).toEqual(['system-out']);
    expect(warn.children[0].text.trimStart().startsWith('WARNING: warn message')).toBe(true);
    expect(warn.children[0].text).toContain('tools.warn (SHOULD)');

    expect(skip.children[0].attrs.message).toContain('tool calls disabled');
    expect(error.children[0].attrs).toMatchObject({ message: 'server exited with code 1', type: 'error' });
  });

  it('escapes attributes and text', () => {
    expect(xmlText('a<b>&]]>\u0000\ud800\ufffe\t\n')).toBe('a&lt;b&gt;&amp;]]&gt;\t\n');
    expect(xmlAttr('"\'<\n\t\r')).toBe('&quot;&apos;&lt;&#10;&#9;&#13;');
    expect(xmlText('emoji \u{1f600}')).toBe('emoji \u{1f600}');
    expect(renderJunit({ ...report, checks: [] })).toContain('tests="0" failures="0" errors="0" skipped="0"');
  });
});

describe('transcript format', () => {
  it('marks direction, time, and truncation', () => {
    const [entry] = check('fail').transcript!.slice(1);
    expect(formatEntry(entry)).toBe('#1 +1.2 ms → {"jsonrpc":"2.0","id":1,"method":"tools/call"}');
    expect(formatEntry(entry, 10)).toBe('#1 +1.2 ms → {"jsonrpc" … (60 bytes)');
    const lines = formatTranscript(check('fail').transcript, { last: 2 });
    expect(lines[0]).toBe('… 2 earlier entries');
    expect(lines).toHaveLength(3);
    expect(lines[2].startsWith('#3 +4 ms ! log')).toBe(true);
  });

  it('gives the size and SHA-256 of a frame cut when recorded, in the console, the HTML report and JUnit', () => {
    const shown = '… (9000 bytes, sha256 0123456789abcdef)';
    const renderings = {
      console: renderConsole(report, { color: false, verbose: true }),
      html: renderHtml(report),
      junit: renderJunit(report),
    };
    for (const [name, text] of Object.entries(renderings)) expect(text, name).toContain(shown);
  });
});

describe('console', () => {
  it('shows header, area table, the triad for a failure, totals and paths', () => {
    const text = renderConsole(report, { color: false, paths: [paths.json, paths.junit] });
    expect(text).toContain('./server');
    expect(text).toContain('revision 2025-06-18');
    expect(text).toMatch(/area\s+pass\s+fail\s+warn\s+skip\s+error/);
    expect(text).toMatch(/tools\s+1\s+1\s+1\s+1\s+1/);
    expect(text).toMatch(/base\s+1\s+0\s+0\s+0\s+0/);
    const fail = text.slice(text.indexOf('FAIL  tools/call/fail-case'));
    expect(fail).toMatch(
      /requirement +tools\.fail \(MUST\) https:\/\/modelcontextprotocol\.io\/\S+#calling-tools[\s\S]*message[\s\S]*expected +\{"error":\{"code":-32602\}\}[\s\S]*actual +\{"result"[\s\S]*transcript +#0 \+0 ms · spawn/,
    );
    expect(text).toContain('ERROR tools/call/error-case');
    expect(text).toContain('WARN  tools/call/warn-case');
    // Each failure and warning ends with the command that explains its check.
    for (const id of ['tools/call/fail-case', 'tools/call/warn-case']) {
      const block = text.slice(text.indexOf(`  ${id}`)).split('\n\n')[0];
      expect(block.trimEnd().split('\n').at(-1)).toBe(`  explain     mcp-conformance explain ${id}`);
    }
    expect(text).not.toContain('tools/call/skip-case'); // not verbose
    expect(text).toContain('6 checks: 2 pass, 1 fail, 1 warn, 1 skip, 1 error');
    expect(text).toContain(paths.junit);
  });

  it('neutralises control characters from the server, with and without colour', () => {
    const plain = renderConsole(report, { color: false, verbose: true });
    expect(plain).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e\uffff]|[\ud800-\udfff]/);
    expect(plain).toContain('\\x1b[31mRED\\x07');
    expect(plain).toContain('\\u202e');
    expect(plain).toContain('\\x00');
    expect(plain).toContain('tools/call/skip-case'); // verbose lists skips
    // Forged transcript lines cannot start a line of their own.
    expect(plain).not.toMatch(/^\s*#9 \+1 ms/m);

    const colored = renderConsole(report, { color: true });
    const ours = colored.replace(/\u001b\[(?:0|1|2|31|32|33|35|36)m/g, '');
    expect(ours).not.toContain('\u001b');
    expect(colored).toContain('\\x1b[31mRED');
    expect(visible('a\u001b[2J\r\nb\u009bc\t')).toBe('a\\x1b[2J\\x0d\\x0ab\\x9bc\t');
  });
});

describe('console: areas that do not apply', () => {
  // Skip messages as the checks give them: the console reads their reason back.
  const capability = unmetRequirement({ capabilities: ['tasks'] }, { capabilities: {} })!;
  const transport = wrongTransport('http', 'stdio')!;
  const credentials = wrongTransport('http', 'stdio', CREDENTIALS_FROM_ENVIRONMENT)!;
  const revision = wrongRevision(['2026-07-28'], '2025-11-25')!;
  const skipped = (id: string, message: string) => fakeCheck(id, 'skip', { message });
  const small: Report = {
    ...report,
    checks: [
      fakeCheck('lifecycle/initialize/result', 'pass'),
      skipped('tasks/get/result', capability),
      skipped('tasks/list/result', 'no task was seen during the run'),
      skipped('auth/challenge/unauthorized-401', credentials),
      skipped('transport/http/post', transport),
      skipped('skills/list/result', revision),
      skipped('progress/notifications/token', 'no notifications/progress was seen during the run'),
      skipped('logging/set-level/answers', capability.replace('tasks', 'logging')),
      skipped('logging/stateless/level', revision),
      fakeCheck('base/robustness/malformed-frames', 'fail'),
    ],
  };

  it('reads the reason of each skip the checks give', () => {
    const client = clientOverOtherTransport('http', 'stdio');
    expect([capability, transport, credentials, client, revision, 'no task was seen'].map(inapplicable)).toEqual([
      'no capability',
      'other transport',
      'other transport',
      'other transport',
      'other revision',
      undefined,
    ]);
  });

  it('folds them into one line under the table, each under its one reason, above the findings', () => {
    const text = renderConsole(small, { color: false });
    const line =
      'not applicable here: progress, logging; no capability: tasks; other transport: auth, transport;\n' +
      '  other revision: skills (8 checks; --verbose lists them)';
    expect(text).toContain(
      `base           0      1      0      0      0\n${line}\n\nFAIL  base/robustness/malformed-frames`,
    );
    expect(text).not.toMatch(/^tasks\s/m);
    expect(text.trimEnd().split('\n').at(-1)).toMatch(/^FAIL  10 checks: 1 pass, 1 fail, 0 warn, 8 skip, 0 error/);
  });

  it('names the reason once when every area gives the same one', () => {
    const revisionOnly = [
      small.checks[0],
      skipped('skills/list/result', revision),
      skipped('tasks-ext/get/result', revision),
    ];
    expect(renderConsole({ ...small, checks: revisionOnly }, { color: false })).toContain(
      '\nnot applicable here (other revision): skills, tasks-ext (2 checks; --verbose lists them)\n',
    );
  });

  it('keeps every area in the table and every skip on a line of its own under --verbose', () => {
    const text = renderConsole(small, { color: false, verbose: true });
    expect(text).not.toContain('not applicable here');
    expect(text).toMatch(/^tasks\s+0\s+0\s+0\s+2\s+0$/m);
    expect(text).toContain(`SKIP  auth/challenge/unauthorized-401  The unauthorized-401 check — ${credentials}`);
  });

  it('shows no empty table when every check skipped', () => {
    const text = renderConsole({ ...small, checks: small.checks.filter((c) => c.status === 'skip') }, { color: false });
    expect(text).not.toContain('area ');
    expect(text).toMatch(/\n\nnot applicable here: [^\n]+\n[^\n]+\n\nEMPTY/);
  });
});

function hasXmllint(): boolean {
  try {
    execFileSync('which', ['xmllint'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
