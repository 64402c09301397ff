import { sql } from 'drizzle-orm';
import type { SuppressionEntryRow, SuppressionQueries } from '../../domain/admin/queries.js';
import type { Db } from '../db.js';
import { getEntry } from '../repos/suppression.js';
import { rowsOf } from '../rows.js';

export function createSuppressionQueries(db: Db): SuppressionQueries {
  return {
    getEntry: (orgId, list, number) => getEntry(db, orgId, list, number),

    listEntries(orgId, list, w) {
      const after = w.after === undefined ? sql`` : sql` and number > ${w.after}::bigint`;
      const state = w.state === undefined ? sql`` : sql` and state = ${w.state}`;
      return rowsOf<SuppressionEntryRow>(
        db,
        sql`select list, number::text as number, state, source, listed_on::text as listed_on,
              to_char(added_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as added_at
            from suppression_entries
            where org_id = ${orgId} and list = ${list}${after}${state}
            order by number limit ${w.limit}`,
      );
    },

    async litigatorBlocks(orgId) {
      const [row] = await rowsOf<{ b: boolean }>(
        db,
        sql`select litigator_blocks as b from suppression_settings where org_id = ${orgId}`,
      );
      return row?.b ?? true;
    },
  };
}
