// The catalogue rows and fault rows `explain` reads: dist/explain-data.json, made by scripts/explain-data.mjs at build
// time (neither catalogue/ nor the fault table is in the published package).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A catalogue row, as explain tells it. */
export interface CatalogueRow {
  level: string;
  levelNote?: string;
  revisions: string[];
  link: string;
  text: string;
  /** What a test client sends or watches. */
  test?: string;
  /** The observable, and the verdict. */
  expected?: string;
  /** The page and section, with the spec's sentences quoted. */
  source?: string;
}

/** A fault of the project's faulty servers that trips a check. */
export interface FaultRow {
  /** The fault table's section: stdio, http, statelessHttp or auth. */
  table: string;
  fault: string;
  expect: string;
  why: string;
}

export interface ExplainData {
  requirements: Record<string, CatalogueRow>;
  faults: Record<string, FaultRow[]>;
}

// src/explain/ and dist/explain/ are both two folders below the package root.
const DATA = new URL('../../dist/explain-data.json', import.meta.url);
let loaded: ExplainData | undefined;

export function explainData(): ExplainData {
  if (loaded) return loaded;
  try {
    loaded = JSON.parse(readFileSync(DATA, 'utf8')) as ExplainData;
  } catch {
    throw new Error(`${fileURLToPath(DATA)} is missing: \`npm run build\` writes it`);
  }
  return loaded;
}
