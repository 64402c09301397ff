import Type from 'typebox';
import { withDefault } from '../../common.js';
import { isoDate } from '../shared/params.js';
import { maybe, obj, time } from '../shared/views.js';

export const AuditQuery = Type.Object({
  limit: withDefault(Type.Integer({ minimum: 1, maximum: 1000 }), 100),
  action: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'An exact action, or a prefix ending in * (buyer_report.*)',
    }),
  ),
  subject_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  since: Type.Optional({ ...isoDate, description: 'Entries at or after this time' }),
  until: Type.Optional({ ...isoDate, description: 'Entries before this time' }),
  cursor: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,15}$', description: 'next_cursor of the previous page' }),
  ),
});

export const AuditItem = obj({
  id: Type.String(),
  at: time,
  actor: Type.String(),
  action: Type.String(),
  subject_type: Type.String(),
  subject_id: Type.String(),
  detail: Type.Unknown({ description: 'What changed (fields vary by action)' }),
  request_id: maybe(Type.String()),
});
