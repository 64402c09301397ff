import type { Command } from 'commander';
import { fields, type View } from '../output.js';
import { orgCollection } from './collection.js';
import { col, listView } from './listing.js';
import { poolCommand } from './pool.js';
import { type CommandGroup, integer, jsonValue, list, orNull } from './shared.js';

const campaignView: View = {
  primary: (c) => c.code,
  human: (c) => fields(c),
};

/** The fields create and update share; on update a `--no-…` clears an optional number. */
function fieldOptions(cmd: Command, update: boolean): Command {
  cmd
    .option('--overflow-number <e164>', 'number answered when the pool is exhausted')
    .option('--forward-to <e164>', 'where calls to the tracking numbers ring')
    .option('--session-ttl <seconds>', 'DNI session lifetime, 300 to 7200', integer)
    .option('--report-window-days <days>', 'how long after a call reports are accepted', integer)
    .option(
      '--config <json|@file>',
      'campaign config object, inline JSON or @file.json',
      jsonValue,
    );
  if (update) {
    cmd
      .option('--no-overflow-number', 'remove the overflow number')
      .option('--no-forward-to', 'clear the forwarding number');
  }
  return cmd;
}

interface FieldOptions {
  name?: string;
  numbers?: string[];
  overflowNumber?: string | false;
  forwardTo?: string | false;
  sessionTtl?: number;
  reportWindowDays?: number;
  config?: unknown;
}

function fieldsBody(o: FieldOptions) {
  return {
    name: o.name,
    numbers: o.numbers,
    overflow_number: orNull<string>(o.overflowNumber),
    forward_to: orNull<string>(o.forwardTo),
    session_ttl_seconds: o.sessionTtl,
    report_window_days: o.reportWindowDays,
    config: o.config,
  };
}

/** The specification's limit, and why a newcomer's 4-character code meets a 422, not a 404. */
const CODE_NOTE = `
Campaign codes are 1 to 3 characters: the API specification's limit on campaign_code.
The public API checks a code's shape before it looks the campaign up, so a 4-character code
is 422 (string_too_long at ["path","campaign_code"] or ["body","campaign_code"]), never 404:
no campaign can have it. A code of the right shape that does not exist is 404.`;

const campaigns = orgCollection('campaigns', 'code');

export const campaignCommands: CommandGroup = (program, ctx) => {
  const campaign = program
    .command('campaign')
    .description('campaigns and their tracking numbers')
    .addHelpText('after', CODE_NOTE);

  fieldOptions(
    campaigns
      .create(
        campaign,
        ctx,
        'create a campaign with its pool of tracking numbers',
        campaignView,
        (o) => ({ code: o.code, ...fieldsBody(o) }),
      )
      .requiredOption('--code <code>', 'campaign code, 1 to 3 characters (see below)')
      .addHelpText('after', CODE_NOTE)
      .requiredOption('--name <name>', 'display name')
      .requiredOption('--numbers <list>', 'comma-separated E.164 pool numbers', list),
    false,
  );

  campaigns.list(campaign, ctx, {
    description: "list an organization's campaigns, newest first",
    view: listView('code', [
      col('CODE', 'code'),
      col('NAME', 'name'),
      col('POOL', 'pool_size'),
      col('OVERFLOW', 'overflow_number'),
      col('FORWARD_TO', 'forward_to'),
      col('TTL', 'session_ttl_seconds'),
      col('CREATED_AT', 'created_at'),
    ]),
  });

  campaigns.show(campaign, ctx, 'show a campaign', campaignView);

  fieldOptions(
    campaigns
      .update(
        campaign,
        ctx,
        'change a campaign; options not given stay as they are',
        campaignView,
        fieldsBody,
      )
      .option('--name <name>', 'display name')
      .option('--numbers <list>', 'the whole pool, comma-separated E.164 (replaces it)', list),
    true,
  );

  campaigns
    .member(campaign, 'add-numbers', 'add numbers to the pool, keeping those it has')
    .requiredOption('--numbers <list>', 'comma-separated E.164 numbers', list)
    .action(
      campaigns.send(ctx, campaignView, (at, o) => ({
        method: 'POST',
        path: at('/numbers'),
        body: { numbers: o.numbers },
      })),
    );

  poolCommand(campaign, ctx);
};
