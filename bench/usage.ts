/** What a child reports about itself: the numbers the parent cannot read from outside. */
export interface Usage {
  /** Peak resident set size of the child's whole life, in kB (process.resourceUsage). */
  maxRssKb: number;
  /** User + system CPU time so far, in microseconds. */
  cpuMicros: number;
  /** Per-outcome DNI counts, when the child serves /dni/session. */
  outcomes?: Record<string, number>;
}

export type Message = { type: string } & Record<string, unknown>;

export function ownUsage(): Usage {
  const r = process.resourceUsage();
  return { maxRssKb: r.maxRSS, cpuMicros: r.userCPUTime + r.systemCPUTime };
}
