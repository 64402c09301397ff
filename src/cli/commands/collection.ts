import type { Command, OptionValues } from 'commander';
import { type ApiRequest, seg } from '../client.js';
import type { View } from '../output.js';
import type { CliContext } from './shared.js';

/**
 * The commands about one collection of an organization (webhooks, conversion destinations):
 * the collection's path, one member's, and `group <name> <org_id> <member_id>` commands that
 * send one request about a member and print the answer through a view.
 */
export interface OrgCollection {
  /** `/admin/orgs/<org>/<collection>` */
  base(orgId: string): string;
  /** `/admin/orgs/<org>/<collection>/<id><rest>` */
  one(orgId: string, id: string, rest?: string): string;
  /** `group list <org_id>`: the whole collection, printed through `view`. */
  list(group: Command, ctx: CliContext, description: string, view: View): Command;
  /** `group name <org_id> <member_id>`, the options and the action left to the caller. */
  member(group: Command, name: string, description: string): Command;
  /**
   * The action of a member command: `build` gets the member's path (with a suffix when
   * given) and the options, and says what to send.
   */
  send(
    ctx: CliContext,
    view: View,
    build: (at: (rest?: string) => string, o: OptionValues) => ApiRequest,
  ): (orgId: string, id: string, o: OptionValues, cmd: Command) => Promise<void>;
}

export function orgCollection(collection: string, memberArg: string): OrgCollection {
  const base = (orgId: string) => `/admin/orgs/${seg(orgId)}/${collection}`;
  const one = (orgId: string, id: string, rest = '') => `${base(orgId)}/${seg(id)}${rest}`;
  return {
    base,
    one,
    list: (group, ctx, description, view) =>
      group
        .command('list')
        .description(description)
        .argument('<org_id>')
        .action((orgId: string, _o, cmd: Command) =>
          ctx.send(cmd, { method: 'GET', path: base(orgId) }, view),
        ),
    member: (group, name, description) =>
      group.command(name).description(description).argument('<org_id>').argument(`<${memberArg}>`),
    send: (ctx, view, build) => (orgId, id, o, cmd) =>
      ctx.send(
        cmd,
        build((rest) => one(orgId, id, rest), o),
        view,
      ),
  };
}

/** What a retry or replay answers: how many deliveries or uploads it queued. */
export const queuedView: View = { primary: (a) => a.queued, human: (a) => `queued ${a.queued}` };
