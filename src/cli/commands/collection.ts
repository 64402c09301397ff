import type { Command, OptionValues } from 'commander';
import { type ApiRequest, seg } from '../client.js';
import type { View } from '../output.js';
import { type Filter, filtered, filterQuery, paged, pageQuery, timeRange } from './listing.js';
import { type CliContext, requireChange } from './shared.js';

/** How a list command reads: its options beyond the organization, and its view. */
export interface ListSpec {
  /** The command's name; `list` when absent. */
  name?: string;
  /** A list each member holds, at this suffix of its path (`/attempts`); the command names the member. */
  of?: string;
  description: string;
  view: View;
  /** --limit and --cursor (a `{items, next_cursor}` page); false for a list answered whole. */
  paged?: boolean;
  /** What --since and --until bound ("calls started"); no time range when absent. */
  range?: string;
  filters?: Filter[];
}

/**
 * The commands about one collection of the admin API: `/admin/keys`, or one under each
 * organization (`/admin/orgs/<org>/webhooks`), whose commands then take `<org_id>` first.
 * A command is about the whole collection (`command`) or about one member (`member`);
 * `send` makes the action of either from the path its arguments name.
 */
export interface Collection {
  /** The collection's path, for a command that builds its own request (an upload). */
  base(...parentIds: string[]): string;
  /** `group <name> [<org_id>]`, the options and the action left to the caller. */
  command(group: Command, name: string, description: string): Command;
  /** `group <name> [<org_id>] <member_id>`, the options and the action left to the caller. */
  member(group: Command, name: string, description: string): Command;
  /**
   * The action of a `command` or `member` command: `build` gets the path its arguments name
   * (`at('/rotate')` adds a suffix), the options and the command, and says what to send.
   */
  send(
    ctx: CliContext,
    view: View,
    build: (at: (rest?: string) => string, o: OptionValues, cmd: Command) => ApiRequest,
  ): (...args: unknown[]) => Promise<void>;
  /** `group show [<org_id>] <member_id>`: the member as the API gives it. */
  show(group: Command, ctx: CliContext, description: string, view: View): Command;
  /**
   * `group list [<org_id>]`: the collection (or with `of`, a member's list), a page at a time
   * unless `paged` is false.
   */
  list(group: Command, ctx: CliContext, spec: ListSpec): Command;
  /** `group create [<org_id>]`: POSTs to the collection what `body` makes of the options. */
  create(group: Command, ctx: CliContext, description: string, view: View, body: Body): Command;
  /**
   * `group update [<org_id>] <member_id>`: PATCHes the member with what `body` makes of the
   * options; a command line that gives none is refused (`requireChange`).
   */
  update(group: Command, ctx: CliContext, description: string, view: View, body: Body): Command;
  /**
   * `group <name> [<org_id>] <member_id>`, named after the action it asks of the member:
   * POSTs to the member's `/<name>` what `body` makes of the options (nothing without it).
   */
  post(
    group: Command,
    ctx: CliContext,
    name: string,
    description: string,
    view: View,
    body?: Body,
  ): Command;
}

/** A request body from the options; `create`, `update` and `post` are given their options after it. */
type Body = (o: OptionValues) => Record<string, unknown>;

/**
 * A collection whose path takes the ids of `parents` (`org_id`, then a campaign's `code`…),
 * each the leading argument of its commands, before `memberArg` on a member command.
 */
export function collection(
  parents: string[],
  base: (parentIds: string[]) => string,
  memberArg: string,
): Collection {
  const command = (group: Command, name: string, description: string) => {
    const cmd = group.command(name).description(description);
    for (const p of parents) cmd.argument(`<${p}>`);
    return cmd;
  };
  const send: Collection['send'] =
    (ctx, view, build) =>
    (...args) => {
      const cmd = args.at(-1) as Command;
      const ids = cmd.processedArgs as string[];
      const memberId = ids[parents.length];
      const path =
        base(ids.slice(0, parents.length)) + (memberId === undefined ? '' : `/${seg(memberId)}`);
      return ctx.send(
        cmd,
        build((rest = '') => path + rest, cmd.opts(), cmd),
        view,
      );
    };
  const member = (group: Command, name: string, description: string) =>
    command(group, name, description).argument(`<${memberArg}>`);
  return {
    base: (...parentIds) => base(parentIds),
    command,
    member,
    send,
    show: (group, ctx, description, view) =>
      member(group, 'show', description).action(
        send(ctx, view, (at) => ({ method: 'GET', path: at() })),
      ),
    list: (group, ctx, spec) => {
      const name = spec.name ?? 'list';
      let cmd = spec.of
        ? member(group, name, spec.description)
        : command(group, name, spec.description);
      if (spec.paged !== false) cmd = paged(cmd);
      if (spec.range) cmd = timeRange(cmd, spec.range);
      const filters = spec.filters ?? [];
      return filtered(cmd, filters).action(
        send(ctx, spec.view, (at, o) => ({
          method: 'GET',
          path: at(spec.of),
          query: {
            ...(spec.paged === false ? {} : pageQuery(o)),
            ...(spec.range ? { since: o.since, until: o.until } : {}),
            ...filterQuery(filters, o),
          },
        })),
      );
    },
    create: (group, ctx, description, view, body) =>
      command(group, 'create', description).action(
        send(ctx, view, (at, o) => ({ method: 'POST', path: at(), body: body(o) })),
      ),
    update: (group, ctx, description, view, body) =>
      member(group, 'update', description).action(
        send(ctx, view, (at, o, cmd) => {
          const changes = body(o);
          requireChange(cmd, changes);
          return { method: 'PATCH', path: at(), body: changes };
        }),
      ),
    post: (group, ctx, name, description, view, body) =>
      member(group, name, description).action(
        send(ctx, view, (at, o) => ({ method: 'POST', path: at(`/${name}`), body: body?.(o) })),
      ),
  };
}

/** `/admin/<name>` and its members `/admin/<name>/<id>`. */
export const adminCollection = (name: string, memberArg: string): Collection =>
  collection([], () => `/admin/${name}`, memberArg);

/** `/admin/orgs/<org_id>/<name>` and its members. */
export const orgCollection = (name: string, memberArg: string): Collection =>
  collection(['org_id'], (ids) => `/admin/orgs/${seg(ids[0]!)}/${name}`, memberArg);

/** What a retry or replay answers: how many deliveries or uploads it queued. */
export const queuedView: View = { primary: (a) => a.queued, human: (a) => `queued ${a.queued}` };
