import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Write `outDir/name` (creating the folder) through a temporary file, so a reader never sees half a report. */
export async function writeReportFile(outDir: string, name: string, text: string): Promise<string> {
  await mkdir(outDir, { recursive: true });
  const path = join(outDir, name);
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, text, 'utf8');
  await rename(temp, path);
  return path;
}
