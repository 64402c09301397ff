import Type from 'typebox';
import { TOUCH_GROUPS } from '../../../domain/reports/vocabulary.js';
import { withDefault } from '../../common.js';
import { isoDate, keyField, range, text } from './schema.js';

const paging = {
  limit: withDefault(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'Items per page' }),
    100,
  ),
  cursor: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'next_cursor, as given' }),
  ),
};
const cellStart = {
  bucket_start: Type.Optional(
    isoDate("The cell's bucket_start, as the report gave it (absent: the whole range)"),
  ),
};

/** A cell's group keys as parameters, by name and description ('' = the key's none). */
const cellKeys = (descriptions: Record<string, string>) =>
  Object.fromEntries(Object.entries(descriptions).map(([k, d]) => [k, Type.Optional(text(d))]));

/** The drill-down of a traffic cell: the report's query, the cell's bucket and keys ('' = none). */
export const TrafficCellQuery = Type.Object({
  ...range,
  ...cellStart,
  ...cellKeys({
    source: 'The source key',
    medium: "The medium key ('' for none)",
    utm_campaign: "The UTM campaign key ('' for none)",
    landing_path: "The landing path key ('' for none)",
    attribution: "The attribution rule key ('' for a session's none)",
    tracking_number: 'The tracking number key',
  }),
  ...paging,
});

/** The touch groups a cell names by parameter (the campaign is the report's filter). */
export const TOUCH_CELL_KEYS = TOUCH_GROUPS.filter((g) => g !== 'campaign');

export const TouchCellQuery = Type.Object({
  ...range,
  ...cellStart,
  ...cellKeys(Object.fromEntries(TOUCH_CELL_KEYS.map((g) => [g, `The ${g} key`]))),
  ...paging,
});

export const SessionCellItem = Type.Object({
  dni_session_id: Type.String(),
  campaign_code: Type.String(),
  created_at: Type.String(),
  tracking_number: Type.String(),
  kind: Type.String(),
  ambiguous: Type.Boolean(),
  hits: Type.Integer(),
  source: Type.String(),
  medium: keyField,
  utm_campaign: keyField,
  landing_path: keyField,
});

export const CallCellItem = Type.Object({
  call_id: Type.String(),
  campaign_code: Type.String(),
  started_at: Type.String(),
  from: Type.String(),
  tracking_number: Type.String(),
  attribution: Type.String(),
  dni_session_id: keyField,
  source: Type.String(),
  first_time: Type.Boolean(),
  status: keyField,
  duration_seconds: Type.Union([Type.Integer(), Type.Null()]),
  disposition: keyField,
});

export const TouchCellItem = Type.Object({
  touch_id: Type.String(),
  campaign_code: Type.String(),
  decided_at: Type.String(),
  to_e164: Type.String(),
  channel: Type.String(),
  purpose: keyField,
  outcome: Type.String(),
  reasons: Type.Array(Type.String()),
  state: Type.String(),
});
