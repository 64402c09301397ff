import { type ConsoleRouter, own } from '../../router.js';
import { NOTICES } from './notices.js';
import {
  inviteAction,
  issueKeyAction,
  orgDetail,
  revokeAction,
  rotateAction,
  trackingAction,
} from './org.js';
import { createOrgAction, orgsPage } from './orgs.js';
import { operatorInviteAction, resetLinkAction, usersPage } from './users.js';

/** The operator's pages: organizations, their keys and people, and every user and link. */
export function operatorPages(router: ConsoleRouter): void {
  router.userPage('/operator/orgs', 'operator-orgs', orgsPage(router));
  router.userAction('/operator/orgs', createOrgAction(router));
  router.userPage('/operator/orgs/:org', 'operator-orgs', async (ctx, q, p) =>
    orgDetail(router, ctx, p.org!, { notice: own(NOTICES, q.notice) ?? null }),
  );
  router.userAction('/operator/orgs/:org/tracking', trackingAction(router));
  router.userAction('/operator/orgs/:org/keys', issueKeyAction(router));
  router.userAction('/operator/keys/:key/revoke', revokeAction(router));
  router.userAction('/operator/keys/:key/rotate', rotateAction(router));
  router.userAction('/operator/orgs/:org/invitations', inviteAction(router));
  router.userPage('/operator/users', 'operator-users', async (ctx) => usersPage(router, ctx));
  router.userAction('/operator/invitations', operatorInviteAction(router));
  router.userAction('/operator/reset-links', resetLinkAction(router));
}
