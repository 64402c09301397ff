import type { CallUploadRow, ConversionQueries } from '../../../domain/conversions/queries.js';
import type { OrgContext } from '../../context.js';
import type { Column } from '../../table.js';
import { timeCell } from '../../time.js';

/** A destination with its counts, as the admin API's `GET …/conversion-destinations/{id}`. */
export interface DestinationRow {
  id: string;
  name: string;
  platform: string;
  enabled: boolean;
  lastSuccessAt: Date | null;
  pending: number;
  sent: number;
  failed: number;
  failedByReason: Record<string, number>;
}

export async function destinationRows(
  q: ConversionQueries,
  orgId: string,
): Promise<DestinationRow[]> {
  const list = await q.listDestinations(orgId);
  return Promise.all(
    list.map(async (d) => {
      const s = await q.destinationStats(orgId, d.id);
      return {
        id: d.id,
        name: d.name,
        platform: d.platform,
        enabled: d.enabled,
        lastSuccessAt: s.lastSuccessAt,
        pending: s.byStatus.pending ?? 0,
        sent: s.byStatus.sent ?? 0,
        failed: s.byStatus.failed ?? 0,
        failedByReason: s.failedByReason,
      };
    }),
  );
}

/** Failures by reason, most first: "CLICK_NOT_FOUND 2, auth_failed 1". */
export const reasonsText = (by: Record<string, number>) =>
  Object.entries(by)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([reason, n]) => `${reason} ${n}`)
    .join(', ');

/** The webhooks-and-exports page's destinations table. */
export function conversionColumns(ctx: OrgContext): Column<DestinationRow>[] {
  return [
    { label: 'Destination', value: (d) => d.name },
    { label: 'Platform', value: (d) => d.platform },
    { label: 'State', value: (d) => (d.enabled ? 'enabled' : 'disabled') },
    {
      label: 'Last success',
      value: (d) => d.lastSuccessAt?.toISOString() ?? '',
      cell: (d) => (d.lastSuccessAt ? timeCell(d.lastSuccessAt, ctx.zone) : 'never'),
    },
    { label: 'Pending', value: (d) => d.pending, numeric: true },
    { label: 'Sent', value: (d) => d.sent, numeric: true },
    { label: 'Failed', value: (d) => d.failed, numeric: true },
    { label: 'Failed by reason', value: (d) => reasonsText(d.failedByReason), long: true },
    { label: 'Destination id', value: (d) => d.id, long: true },
  ];
}

/** The call page's uploads table: each destination's upload of the call, and its state. */
export function callUploadColumns(ctx: OrgContext): Column<CallUploadRow>[] {
  return [
    { label: 'Destination', value: (u) => u.destinationName },
    { label: 'Platform', value: (u) => u.platform },
    { label: 'Kind', value: (u) => u.kind },
    { label: 'State', value: (u) => u.status },
    { label: 'Attempts', value: (u) => u.attempts, numeric: true },
    {
      label: 'Sent',
      value: (u) => u.sentAt?.toISOString() ?? '',
      cell: (u) => (u.sentAt ? timeCell(u.sentAt, ctx.zone) : '–'),
    },
    { label: 'Reason', value: (u) => u.reason ?? '', long: true },
    { label: 'Upload id', value: (u) => u.id, long: true },
  ];
}
