import { writeFileSet } from '../output.js';
import type { Matrix } from '../../schema/generated/matrix.js';
import { renderMatrixHtml } from './html.js';

/** Writes matrix.json and matrix.html into `outDir` as one set (see writeFileSet); returns their paths. */
export async function writeMatrix(matrix: Matrix, outDir: string): Promise<{ json: string; html: string }> {
  const paths = await writeFileSet(outDir, {
    'matrix.json': `${JSON.stringify(matrix, null, 2)}\n`,
    'matrix.html': renderMatrixHtml(matrix),
  });
  return { json: paths['matrix.json']!, html: paths['matrix.html']! };
}
