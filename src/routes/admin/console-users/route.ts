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

/**
 * The organization a console role belongs to, read once per request: a manager or viewer
 * needs an organization that exists (404 otherwise); an operator belongs to none, so an
 * `org_id` given with it is not kept.
 */
async function orgOfRole(deps: AppDeps, role: string, orgId: string | undefined) {
  if (!(CONSOLE_ROLES as readonly string[]).includes(role)) return null;
  if (!orgId) throw errors.field(['body', 'org_id'], `a ${role} needs an org_id`, null);
  return (await getOrg(deps.repos, orgId)).id;
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
    const orgId = await orgOfRole(deps, body.role, body.org_id);
    const user = await createUser(
      deps.repos,
      { email: body.email, password: body.password, role: body.role, orgId },
      'admin',
      now(),
      req.id,
    );
    return reply.code(201).send({
      user_id: user.id,
      email: user.email,
      role: body.role,
      org_id: orgId,
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
    // A reset link names an existing user; only an invitation makes a member of an organization.
    const orgId =
      body.kind === 'invitation' ? await orgOfRole(deps, r, body.org_id) : (body.org_id ?? null);
    const { token, link } = await createLink(
      deps.repos,
      sessionPolicy(settings),
      { kind: body.kind, email: body.email, role: r, orgId },
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
