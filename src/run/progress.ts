import type { CheckResult } from '../schema/generated/report.js';

/** Where a run is: what a live progress line shows. */
export interface Progress {
  done: number;
  total: number;
  /** The check running longest of those now running. */
  current?: string;
  /** Checks failed so far. */
  failures: number;
  /** The revision of this run, when one of several. */
  revision?: string;
  /** An area whose last check just ended, with its checks' statuses. */
  areaDone?: { area: string; statuses: CheckResult['status'][] };
}

export type OnProgress = (progress: Progress) => void;

const areaOfId = (id: string) => id.split('/')[0];

/** Counts a run's checks as they start and end, and tells `onProgress` after each. */
export function progressTracker(ids: readonly string[], onProgress: OnProgress | undefined) {
  const running = new Set<string>();
  const left = new Map<string, number>();
  const statuses = new Map<string, CheckResult['status'][]>();
  for (const id of ids) left.set(areaOfId(id), (left.get(areaOfId(id)) ?? 0) + 1);
  let done = 0;
  let failures = 0;
  const tell = (areaDone?: Progress['areaDone']) =>
    onProgress?.({
      done,
      total: ids.length,
      current: running.values().next().value,
      failures,
      ...(areaDone && { areaDone }),
    });
  return {
    /** `result` is the check `id` under way: counted when it ends. */
    track(id: string, result: Promise<CheckResult>): Promise<CheckResult> {
      if (!onProgress) return result;
      running.add(id);
      tell();
      return result.then((r) => {
        running.delete(id);
        done++;
        if (r.status === 'fail') failures++;
        const area = areaOfId(id);
        statuses.set(area, [...(statuses.get(area) ?? []), r.status]);
        const remaining = (left.get(area) ?? 1) - 1;
        left.set(area, remaining);
        tell(remaining === 0 ? { area, statuses: statuses.get(area)! } : undefined);
        return r;
      });
    },
  };
}
