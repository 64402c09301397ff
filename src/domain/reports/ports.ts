import type {
  DrillCall,
  DrillSession,
  DrillTouch,
  Report,
  ReportCell,
  TouchQuery,
  TouchRow,
  TrafficQuery,
  TrafficRow,
} from './types.js';
import type { TouchGroup, TrafficGroup } from './vocabulary.js';

export interface DrillWindow {
  /** How many rows to read at most (the route asks one past its page: src/http/paging.ts). */
  limit: number;
  /** The key of the last row shown (from the cursor), exclusive. */
  after?: string | undefined;
}

/**
 * The report read model (src/store/queries/reports.ts), bound to the store
 * (raw SQL over the rollups). Organization first: nothing of another
 * organization is ever counted or listed.
 */
export interface ReportQueries {
  trafficReport(orgId: string, q: TrafficQuery): Promise<Report<TrafficRow>>;
  touchReport(orgId: string, q: TouchQuery): Promise<Report<TouchRow>>;
  /** The sessions counted in a traffic cell (`sessions`), newest first. */
  cellSessions(
    orgId: string,
    cell: ReportCell<TrafficGroup>,
    w: DrillWindow,
  ): Promise<DrillSession[]>;
  /** The calls counted in a traffic cell (`calls`), newest first. */
  cellCalls(orgId: string, cell: ReportCell<TrafficGroup>, w: DrillWindow): Promise<DrillCall[]>;
  /** The touches counted in a touch cell, newest first. */
  cellTouches(orgId: string, cell: ReportCell<TouchGroup>, w: DrillWindow): Promise<DrillTouch[]>;
  /** The organization's report time zone (null: no such organization). */
  orgTimeZone(orgId: string): Promise<string | null>;
}
