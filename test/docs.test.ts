// The README stays a short front page; its links and the docs' links between pages lead somewhere.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

/** GitHub's anchor of a Markdown heading. */
const slug = (heading: string) =>
  heading
    .replace(/^#+\s*/, '')
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');

const pages = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('the docs', () => {
  it('keep the README under 250 lines, with the two set-up commands first', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    expect(readme).toMatch(
      /^# mcp-conformance\n\n```sh\nnpm install && npx mcp-conformance examples\/reference-server .*\nnpm test /,
    );
  });

  it('link to pages and headings that exist', () => {
    for (const page of pages) {
      const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, target, anchor] of text.matchAll(/\]\(((?!https?:)[^)#\s]*)(?:#([^)\s]+))?\)/g)) {
        const file = target === '' ? join(ROOT, page) : join(ROOT, dirname(page), target);
        expect(existsSync(file), `${page} links to ${target}`).toBe(true);
        if (!anchor) continue;
        const headings = readFileSync(file, 'utf8')
          .split('\n')
          .filter((l) => /^#{1,4} /.test(l))
          .map(slug);
        expect(headings, `${page} links to ${target}#${anchor}`).toContain(anchor);
      }
    }
  });

  it("show an MCP host's config line that starts `mcp-conformance mcp`", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const line = /```json\n(.*)\n```/.exec(readme)?.[1];
    expect(JSON.parse(`{${line}}`)).toEqual({
      'mcp-conformance': { command: 'npx', args: ['-y', 'mcp-conformance', 'mcp'] },
    });
  });
});
