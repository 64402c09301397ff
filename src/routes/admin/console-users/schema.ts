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
