import { Option } from 'commander';
import { seg } from '../client.js';
import { fields, type View } from '../output.js';
import { col, listView, paged, pageQuery } from './listing.js';
import { type CommandGroup, integer, orNull, requireChange } from './shared.js';

const orgView: View = {
  primary: (org) => org.org_id,
  human: (org) => fields(org),
};

export const orgCommands: CommandGroup = (program, ctx) => {
  const org = program.command('org').description('organizations (tenants)');

  org
    .command('create')
    .description('create an organization')
    .requiredOption('--name <name>', 'display name')
    .option('--tracking-enabled', 'let its keys create DNI sessions (default: disabled)')
    .option('--rate-limit <n>', 'DNI sessions per minute for the whole org', integer)
    .option(
      '--opt-out-clarification',
      'answer an ambiguous reply with one clarification text instead of revoking (default: revoke)',
    )
    .action((o, cmd) =>
      ctx.send(
        cmd,
        {
          method: 'POST',
          path: '/admin/orgs',
          body: {
            name: o.name,
            ...(o.trackingEnabled ? { tracking_enabled: true } : {}),
            ...(o.rateLimit !== undefined ? { dni_rate_limit_per_minute: o.rateLimit } : {}),
            ...(o.optOutClarification ? { opt_out_clarification: true } : {}),
          },
        },
        orgView,
      ),
    );

  paged(org.command('list').description('list organizations, newest first')).action((o, cmd) =>
    ctx.send(
      cmd,
      { method: 'GET', path: '/admin/orgs', query: pageQuery(o) },
      listView('org_id', [
        col('ORG_ID', 'org_id'),
        col('NAME', 'name'),
        col('TRACKING', 'tracking_enabled'),
        col('RATE_LIMIT', 'dni_rate_limit_per_minute'),
        col('CREATED_AT', 'created_at'),
      ]),
    ),
  );

  org
    .command('show')
    .description('show an organization')
    .argument('<org_id>')
    .action((orgId: string, _o, cmd) =>
      ctx.send(cmd, { method: 'GET', path: `/admin/orgs/${seg(orgId)}` }, orgView),
    );

  org
    .command('update')
    .description('change an organization; options not given stay as they are')
    .argument('<org_id>')
    .option('--name <name>', 'display name')
    .option('--tracking-enabled', 'enable DNI tracking')
    .addOption(
      new Option('--tracking-disabled', 'disable DNI tracking').conflicts('trackingEnabled'),
    )
    .option('--rate-limit <n>', 'DNI sessions per minute for the whole org', integer)
    .option('--no-rate-limit', 'remove the per-org limit')
    .option(
      '--opt-out-phrase <phrase>',
      'a reply that revokes consent besides STOP and the standard words (repeat it; replaces the list)',
      (v: string, prev: string[] = []) => [...prev, v],
    )
    .option('--no-opt-out-phrases', 'remove every extra opt-out phrase')
    .option('--time-zone <zone>', 'IANA zone of its reports, e.g. America/New_York')
    .option(
      '--opt-out-clarification',
      'answer an ambiguous reply ("stop by the store") with one clarification text instead of revoking',
    )
    .option('--no-opt-out-clarification', 'revoke at once on an ambiguous reply (the default)')
    .action((orgId: string, o, cmd) => {
      const body = {
        name: o.name,
        tracking_enabled: o.trackingEnabled ? true : o.trackingDisabled ? false : undefined,
        dni_rate_limit_per_minute: orNull<number>(o.rateLimit),
        opt_out_phrases: o.optOutPhrases === false ? [] : o.optOutPhrase,
        time_zone: o.timeZone,
        opt_out_clarification: o.optOutClarification,
      };
      requireChange(cmd, body);
      return ctx.send(cmd, { method: 'PATCH', path: `/admin/orgs/${seg(orgId)}`, body }, orgView);
    });
};
