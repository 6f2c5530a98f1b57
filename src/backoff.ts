/** The pause before retry `attempt` (0 for the first): `firstMs`, doubled each time, at most `maxMs`. */
export const backoff = (attempt: number, firstMs: number, maxMs: number): number =>
  Math.min(firstMs * 2 ** Math.min(attempt, 30), maxMs);
