import type { ConsoleCallRow } from '../../../domain/admin/queries.js';
import type { OrgContext } from '../../context.js';
import { html } from '../../html.js';
import { orgPath } from '../../layout.js';
import { type Column, timeColumn } from '../../table.js';
import { timeCell } from '../../time.js';
import type { OutcomeFilter } from '../shared/outcomes.js';

export const ATTRIBUTION_WORDS: Record<string, string> = {
  session: 'the visitor’s session held the number when the call came in',
  recent_holder: 'the number’s last holder, within 30 minutes after its session ended',
  repeat_caller: 'the caller’s latest attributed session in this campaign (a repeat caller)',
  campaign: 'campaign only: no session could be tied to the call',
};

export const duration = (s: number | null) =>
  s === null ? '' : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

type CallRow = ConsoleCallRow;

/** A call's outcome as reports count it (report_call_outcome, docs/reporting.md). */
export function outcomeOf(status: string | null, duration: number | null): OutcomeFilter {
  if (status === 'completed' && (duration ?? 0) > 0) return 'answered';
  if (status !== null && ['busy', 'no-answer', 'failed', 'canceled', 'completed'].includes(status))
    return 'missed';
  return 'pending';
}

const OUTCOME_WORDS: Record<OutcomeFilter, string> = {
  answered: 'answered',
  missed: 'missed',
  pending: 'no outcome yet',
};

export function callColumns(ctx: OrgContext): Column<CallRow>[] {
  const link = (r: CallRow) =>
    html`<a href="${orgPath(ctx.org.id, `calls/${r.call.id}`)}">${timeCell(r.call.startedAt, ctx.zone)}</a>`;
  const started = timeColumn('Started', (r: CallRow) => r.call.startedAt, ctx.zone);
  return [
    { ...started, cell: link },
    { label: 'Campaign', value: (r) => r.campaignCode },
    { label: 'Caller', value: (r) => r.call.fromNumber },
    { label: 'Tracking number', value: (r) => r.call.trackingNumber, low: true },
    {
      label: 'Source',
      value: (r) => r.source,
      cell: (r) =>
        r.call.ambiguous
          ? html`${r.source} <a class="badge" href="${orgPath(ctx.org.id, `campaigns/${encodeURIComponent(r.campaignCode)}`)}#sizing" title="Several visitors held this number: the match is uncertain">shared number</a>`
          : r.source,
    },
    { label: 'UTM campaign', value: (r) => r.session?.utmCampaign ?? '', low: true },
    { label: 'Attribution', value: (r) => r.call.attribution, low: true },
    { label: 'Shared number', value: (r) => (r.call.ambiguous ? 'yes' : 'no'), low: true },
    {
      label: 'Outcome',
      value: (r) => OUTCOME_WORDS[outcomeOf(r.call.status, r.call.durationSeconds)],
      cell: (r) => {
        const o = outcomeOf(r.call.status, r.call.durationSeconds);
        return html`<span class="outcome ${o}">${OUTCOME_WORDS[o]}${
          r.call.status && o !== 'answered'
            ? html` <span class="hint">(${r.call.status})</span>`
            : ''
        }</span>`;
      },
    },
    { label: 'Carrier status', value: (r) => r.call.status ?? '', low: true },
    {
      label: 'Duration',
      value: (r) => r.call.durationSeconds,
      cell: (r) => duration(r.call.durationSeconds),
      numeric: true,
    },
    { label: 'Buyer outcome', value: (r) => r.call.disposition ?? '' },
    { label: 'Call id', value: (r) => r.call.id, low: true },
  ];
}
