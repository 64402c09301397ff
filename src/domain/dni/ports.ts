/** What the pool sizing gauges read (pool-gauges.ts). */
export interface PoolSizingRepository {
  /** Every campaign with a pool. */
  campaignsWithPool(): Promise<{ id: string; org_id: string; code: string }[]>;
  /** Reads a campaign's pool, sessions and calls in [since, now]. */
  observePool(campaignId: string, since: Date, now: Date): Promise<PoolObservation>;
}

/** What one campaign's own rows say about its pool over a window (all counts in the window). */
export interface PoolObservation {
  numbers: number;
  hasOverflow: boolean;
  heldNow: number;
  /** One row per hour of the window, oldest first: new sessions and peak concurrent held numbers. */
  hours: { hour: Date; arrivals: number; peakHeld: number }[];
  sessions: { allocated: number; sticky: number; shared: number; overflow: number };
  /**
   * Mean seconds a session holds its number, creation to (slid) expiry; a live
   * session counts with its current expiry, which later requests may extend.
   */
  meanHoldSeconds: number | null;
  calls: {
    total: number;
    holder: number;
    grace: number;
    repeatCaller: number;
    campaignOnly: number;
    /** Calls on a number shared by several live sessions, or given to a session that shared one. */
    onSharedNumber: number;
  };
  /** Seconds after the holder's expiry of every call attributed by the grace rule. */
  graceLateness: number[];
}
