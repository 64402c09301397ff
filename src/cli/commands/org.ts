import { Option } from 'commander';
import { fields, type View } from '../output.js';
import { adminCollection } from './collection.js';
import { col, listView } from './listing.js';
import { type CommandGroup, integer, orNull } from './shared.js';

const orgView: View = {
  primary: (org) => org.org_id,
  human: (org) => fields(org),
};

const orgs = adminCollection('orgs', 'org_id');

export const orgCommands: CommandGroup = (program, ctx) => {
  const org = program.command('org').description('organizations (tenants)');

  orgs
    .create(org, ctx, 'create an organization', orgView, (o) => ({
      name: o.name,
      ...(o.trackingEnabled ? { tracking_enabled: true } : {}),
      ...(o.rateLimit !== undefined ? { dni_rate_limit_per_minute: o.rateLimit } : {}),
      ...(o.optOutClarification ? { opt_out_clarification: true } : {}),
    }))
    .requiredOption('--name <name>', 'display name')
    .option('--tracking-enabled', 'let its keys create DNI sessions (default: disabled)')
    .option('--rate-limit <n>', 'DNI sessions per minute for the whole org', integer)
    .option(
      '--opt-out-clarification',
      'ask once after a doubtful reply; opted out until the answer is yes (default: revoke at once)',
    );

  orgs.list(org, ctx, {
    description: 'list organizations, newest first',
    view: listView('org_id', [
      col('ORG_ID', 'org_id'),
      col('NAME', 'name'),
      col('TRACKING', 'tracking_enabled'),
      col('RATE_LIMIT', 'dni_rate_limit_per_minute'),
      col('CREATED_AT', 'created_at'),
    ]),
  });

  orgs.show(org, ctx, 'show an organization', orgView);

  orgs
    .update(
      org,
      ctx,
      'change an organization; options not given stay as they are',
      orgView,
      (o) => ({
        name: o.name,
        tracking_enabled: o.trackingEnabled ? true : o.trackingDisabled ? false : undefined,
        dni_rate_limit_per_minute: orNull<number>(o.rateLimit),
        opt_out_phrases: o.optOutPhrases === false ? [] : o.optOutPhrase,
        time_zone: o.timeZone,
        opt_out_clarification: o.optOutClarification,
        currency: o.currency,
      }),
    )
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
      'ask once after a doubtful reply ("can I stop by Saturday?"); opted out until the answer is yes',
    )
    .option(
      '--no-opt-out-clarification',
      'revoke at once on a doubtful reply, without a question (the default)',
    )
    .option('--currency <code>', 'ISO 4217 currency of buyer payouts and revenue, e.g. USD');
};
