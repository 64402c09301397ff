import Type from 'typebox';
import { literals } from '../../../domain/schema.js';
import { SUPPRESSION_LISTS } from '../../../domain/vocabulary.js';
import { listQuery } from '../shared/list-query.js';
import { e164 } from '../shared/params.js';
import { count, maybe, obj, time } from '../shared/views.js';

const suppressionList = literals(SUPPRESSION_LISTS);
const listDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
const usState = Type.String({ pattern: '^[A-Z]{2}$', description: 'USPS state code' });

export const SuppressionListParams = Type.Object({
  org_id: Type.String({ minLength: 1, maxLength: 64 }),
  list: suppressionList,
});
export const SuppressionEntryParams = Type.Object({
  org_id: Type.String({ minLength: 1, maxLength: 64 }),
  list: suppressionList,
  e164,
});
export const SuppressionImportQuery = Type.Object({
  mode: Type.Optional(Type.Union([Type.Literal('add'), Type.Literal('replace')])),
  source: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  list_date: Type.Optional(listDate),
  state: Type.Optional(usState),
});
export const PutSuppressionEntry = Type.Object(
  {
    source: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    list_date: Type.Optional(listDate),
    state: Type.Optional(usState),
  },
  { additionalProperties: false },
);
export const DeleteSuppressionEntry = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 500 }) },
  { additionalProperties: false },
);
export const SuppressionSettings = Type.Object(
  { litigator_blocks: Type.Boolean() },
  { additionalProperties: false },
);

export const SuppressionEntryItem = Type.Object({
  org_id: Type.String(),
  list: Type.String({ description: 'internal | national | state | litigator' }),
  e164: Type.String(),
  state: maybe(Type.String()),
  source: Type.String(),
  list_date: Type.String({ description: 'YYYY-MM-DD: the date of the list copy' }),
  added_at: time,
});

export const SuppressionImportSummary = obj({
  import_id: Type.String(),
  list: literals(SUPPRESSION_LISTS),
  mode: literals(['add', 'replace']),
  listed_on: Type.String({ description: 'YYYY-MM-DD' }),
  rows: count,
  added: count,
  removed: count,
  rejected_count: count,
  rejected: Type.Array(obj({ line: Type.Integer(), error: Type.String() }), {
    description: 'The first rejected lines, with their line numbers',
  }),
});

export const SuppressionSettingsView = obj({ litigator_blocks: Type.Boolean() });

export const SuppressionEntryRemoved = obj({
  org_id: Type.String(),
  list: literals(SUPPRESSION_LISTS),
  e164: Type.String(),
  removed: Type.Literal(true),
  reason: Type.String(),
});

export const SuppressionListQuery = listQuery({
  state: Type.Optional(
    Type.String({ pattern: '^[A-Z]{2}$', description: 'State lists: only this USPS state code' }),
  ),
});
