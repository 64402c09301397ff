import Type from 'typebox';
import { LINK_ROLES } from '../../../domain/console/ports.js';
import { literals } from '../../../domain/schema.js';
import { maybe, obj, time } from '../shared/views.js';

export const ConsoleUserCreated = obj({
  user_id: Type.String(),
  email: Type.String(),
  role: literals(LINK_ROLES),
  org_id: maybe(Type.String()),
  created_at: time,
});

export const ConsoleLinkCreated = obj({
  kind: literals(['invitation', 'reset']),
  email: Type.String(),
  role: maybe(literals(LINK_ROLES)),
  org_id: maybe(Type.String()),
  url: Type.String({ description: 'Shown once' }),
  expires_at: time,
});

const email = Type.String({ minLength: 3, maxLength: 320, pattern: '^[^@ ]+@[^@ ]+$' });
const role = Type.Union(LINK_ROLES.map((r) => Type.Literal(r)));
const orgId = Type.String({ minLength: 1, maxLength: 64 });

export const CreateConsoleUser = Type.Object(
  {
    email,
    role,
    password: Type.String({ minLength: 12, maxLength: 256 }),
    org_id: Type.Optional(orgId),
  },
  { additionalProperties: false },
);

export const CreateConsoleLink = Type.Object(
  {
    kind: Type.Union([Type.Literal('invitation'), Type.Literal('reset')]),
    email,
    role: Type.Optional(role),
    org_id: Type.Optional(orgId),
  },
  { additionalProperties: false },
);
