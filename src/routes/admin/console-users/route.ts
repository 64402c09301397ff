import type { FastifyInstance } from 'fastify';
import { DEFAULT_CONSOLE_SETTINGS } from '../../../config.js';
import type { AppDeps } from '../../../deps.js';
import { getOrg } from '../../../domain/admin/orgs-keys.js';
import { createLink, createUser, sessionPolicy } from '../../../domain/console/accounts.js';
import { CONSOLE_ROLES } from '../../../domain/console/ports.js';
import { errors } from '../../../errors.js';
import { adminRoute } from '../shared/openapi.js';
import {
  ConsoleLinkCreated,
  ConsoleUserCreated,
  CreateConsoleLink,
  CreateConsoleUser,
} from './schema.js';

/** A manager or viewer belongs to an organization; an operator to none. */
async function checkOrg(deps: AppDeps, r: string, org: string | undefined, field: string[]) {
  if ((CONSOLE_ROLES as readonly string[]).includes(r)) {
    if (!org) throw errors.field([...field, 'org_id'], `a ${r} needs an org_id`, null);
    await getOrg(deps.repos, org);
  }
}

/** Console users from the CLI (contract §9): the first operator, invitation and reset links. */
export function consoleUserRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const settings = deps.console ?? DEFAULT_CONSOLE_SETTINGS;
  const now = () => new Date(deps.clock.now());

  const postUsers = adminRoute('console', 'Create a console user with a password', {
    body: CreateConsoleUser,
    status: 201,
    answer: ConsoleUserCreated,
    errors: [404, 409],
    description:
      '`operator` sees every organization; `manager` and `viewer` need `org_id`. The password (at least 12 characters) is stored as a scrypt hash.',
  });
  admin.post('/admin/console/users', postUsers.options, async (req, reply) => {
    const { body } = postUsers.read(req);
    await checkOrg(deps, body.role, body.org_id, ['body']);
    const user = await createUser(
      deps.repos,
      { email: body.email, password: body.password, role: body.role, orgId: body.org_id ?? null },
      'admin',
      now(),
      req.id,
    );
    return reply.code(201).send({
      user_id: user.id,
      email: user.email,
      role: body.role,
      org_id: body.role === 'operator' ? null : (body.org_id ?? null),
      created_at: user.createdAt.toISOString(),
    });
  });

  const postLinks = adminRoute('console', 'Make an invitation or password-reset link', {
    body: CreateConsoleLink,
    status: 201,
    answer: ConsoleLinkCreated,
    errors: [404],
    description:
      'The link is shown once and expires after CONSOLE_LINK_HOURS. An invitation names the role (and the organization for a manager or viewer); a reset names an existing user.',
  });
  admin.post('/admin/console/links', postLinks.options, async (req, reply) => {
    const { body } = postLinks.read(req);
    const r = body.role ?? (body.kind === 'reset' ? 'viewer' : undefined);
    if (!r) throw errors.field(['body', 'role'], 'an invitation needs a role', null);
    if (body.kind === 'invitation') await checkOrg(deps, r, body.org_id, ['body']);
    const { token, link } = await createLink(
      deps.repos,
      sessionPolicy(settings),
      { kind: body.kind, email: body.email, role: r, orgId: body.org_id ?? null },
      'admin',
      now(),
      req.id,
    );
    const path = body.kind === 'invitation' ? 'invite' : 'reset';
    return reply.code(201).send({
      kind: link.kind,
      email: link.email,
      role: link.kind === 'reset' ? null : link.role,
      org_id: link.orgId,
      url: `${settings.publicUrl}/${path}/${token}`,
      expires_at: link.expiresAt.toISOString(),
    });
  });
}
