import Type from 'typebox';
import { literals } from '../../../domain/schema.js';
import { SCOPES } from '../../../domain/vocabulary.js';
import { withDefault } from '../../common.js';
import { listQuery } from '../shared/list-query.js';
import { isoDate } from '../shared/params.js';
import { maybe, time } from '../shared/views.js';

const scopes = Type.Array(literals(SCOPES), {
  minItems: 1,
});
export const KeyIdParams = Type.Object({ key_id: Type.String({ minLength: 1, maxLength: 64 }) });

export const CreateKey = Type.Object(
  {
    scopes,
    expires_at: Type.Optional(Type.Union([isoDate, Type.Null()])),
    label: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    buyer_id: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()], {
        description:
          'Binds the key to a buyer of the organization: it may only post buyer reports, on the calls that buyer answered (needs the execute scope)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const UpdateKey = Type.Object({ scopes }, { additionalProperties: false });

export const RotateKey = Type.Object(
  { grace_seconds: withDefault(Type.Integer({ minimum: 0, maximum: 30 * 86_400 }), 0) },
  { additionalProperties: false },
);

export const KeyItem = Type.Object(
  {
    key_id: Type.String(),
    org_id: Type.String(),
    key_prefix: Type.String({ description: 'The first characters of the key, never the key' }),
    scopes: Type.Array(Type.String()),
    label: maybe(Type.String()),
    expires_at: maybe(time),
    revoked_at: maybe(time),
    rotated_to: maybe(Type.String()),
    buyer_id: maybe(
      Type.String({ description: 'Bound to this buyer: posts buyer reports on its calls only' }),
    ),
    created_at: time,
  },
  { additionalProperties: false },
);

export const KeyIssued = Type.Object({
  ...KeyItem.properties,
  api_key: Type.String({ description: 'The key itself: shown once, never again' }),
});

export const KeyRotated = Type.Object({
  ...KeyIssued.properties,
  replaces: Type.String({ description: 'The key this one replaces' }),
  old_key_stops_at: maybe(time),
});

export const KeyListQuery = listQuery({
  status: Type.Optional(
    Type.Union([Type.Literal('active'), Type.Literal('revoked'), Type.Literal('expired')]),
  ),
});
