/** How to start (or reach) the server under test. Produced by target resolution. */
export interface LaunchPlan {
  /** What the user pointed at, for messages and reports. */
  description: string;
  command: string;
  args: string[];
  cwd: string;
  /** Added to the inherited environment. */
  env: Record<string, string>;
}
