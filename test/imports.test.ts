import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../src');

/**
 * Every relative import of each .ts file under `root`: static ones (`import type` too: a cycle of types is still a
 * knot in the layering), re-exports, bare `import './x.js'` and dynamic `import('./x.js')`. Keys and values are
 * paths relative to `root`.
 */
function importGraph(root: string): Map<string, string[]> {
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  const graph = new Map<string, string[]>();
  const pattern =
    /\b(?:import|export)\s+(?:type\s+)?(?:[^'"`;]*?\bfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
  for (const file of files) {
    // Comments may quote an import; strip them (a string holding // or /* does not occur next to a relative import).
    const text = readFileSync(join(root, file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    const targets = [...text.matchAll(pattern)].map((m) =>
      relative(root, resolve(root, dirname(file), (m[1] ?? m[2]).replace(/\.js$/, '.ts'))),
    );
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Each cycle as the files along it, first file repeated at the end; one per strongly connected part of the graph. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return found;
}

describe('the imports of src/', () => {
  it('form no cycle', () => {
    const graph = importGraph(SRC);
    expect(graph.size).toBeGreaterThan(50);
    expect(cycles(graph).map((c) => c.join(' → '))).toEqual([]);
  });

  it('run one way between layers', () => {
    const graph = importGraph(SRC);
    const from = (prefix: string) =>
      [...graph].filter(([file]) => file.startsWith(prefix)).flatMap(([file, to]) => to.map((t) => `${file} → ${t}`));
    // Defaults: read by every layer, so they import nothing.
    expect(graph.get('config/defaults.ts')).toEqual([]);
    // Transports carry frames: no session, no schema or revision list (the generated report types are everyone's model).
    expect(
      from('transport/').filter((e) => /→ (session|schema\/(?!generated\/)|checks|discovery|run)\//.test(e)),
    ).toEqual([]);
    expect(from('session/').filter((e) => /→ (checks|discovery|run)\//.test(e))).toEqual([]);
    // Generated checks reach the wire through a session only.
    const generated = [...graph.keys()].filter((f) =>
      /^checks\/(?:[^/]+\/properties|kit\/property-runner)\.ts$/.test(f),
    );
    expect(generated.length).toBeGreaterThan(4);
    expect(
      generated.flatMap((f) =>
        graph
          .get(f)!
          .filter((t) => t.startsWith('transport/'))
          .map((t) => `${f} → ${t}`),
      ),
    ).toEqual([]);
    // Generators make values; they know no check. Checks are definitions: the suite assembles them, the run runs them.
    expect(from('generate/').filter((e) => /→ (checks|suite|run)\//.test(e))).toEqual([]);
    expect(from('checks/').filter((e) => /→ (suite|run)\//.test(e))).toEqual([]);
    // What checks are built from knows no check; the case engine knows only that; code checks do not run cases.
    expect(from('checks/kit/').filter((e) => /→ checks\/(?!kit\/)/.test(e))).toEqual([]);
    expect(from('checks/cases/').filter((e) => /→ checks\/(?!kit\/|cases\/)/.test(e))).toEqual([]);
    expect(from('checks/').filter((e) => !e.startsWith('checks/cases/') && e.includes('→ checks/cases/'))).toEqual([]);
    expect(from('suite/').filter((e) => e.includes('→ run/'))).toEqual([]);
    // Reports read results; they run nothing.
    expect(from('report/').filter((e) => /→ (run|cli)\//.test(e))).toEqual([]);
  });

  it('the finder sees a cycle through a type import, a re-export or a dynamic import', () => {
    const root = mkdtempSync(join(tmpdir(), 'import-graph-'));
    try {
      mkdirSync(join(root, 'a'));
      writeFileSync(join(root, 'a/x.ts'), "import type { Y } from '../y.js';\nexport const x = 1;\n");
      writeFileSync(join(root, 'y.ts'), "export * from './z.js';\nexport type Y = number;\n");
      writeFileSync(
        join(root, 'z.ts'),
        "// import { x } from './a/x.js' (a comment, not an edge)\nexport const z = () => import('./a/x.js');\n",
      );
      writeFileSync(join(root, 'w.ts'), "import {\n  z,\n} from './z.js';\nimport './y.js';\n");
      const graph = importGraph(root);
      expect(graph.get('w.ts')).toEqual(['z.ts', 'y.ts']);
      expect(cycles(graph)).toEqual([['a/x.ts', 'y.ts', 'z.ts', 'a/x.ts']]);
      writeFileSync(join(root, 'z.ts'), 'export const z = 1;\n');
      expect(cycles(importGraph(root))).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
