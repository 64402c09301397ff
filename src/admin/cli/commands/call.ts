import { seg } from '../client.js';
import { fields, type View } from '../output.js';
import type { CommandGroup } from './shared.js';

const callView: View = {
  primary: (c) => c.call_id,
  human: (c) => fields(c),
};

export const callCommands: CommandGroup = (program, ctx) => {
  const call = program.command('call').description('inbound calls');

  call
    .command('create')
    .description('record an inbound call to a tracking number, attributed like a carrier call')
    .argument('<org_id>')
    .requiredOption('--to <e164>', 'the tracking number that was called')
    .requiredOption('--from <caller>', 'caller id as the carrier gives it')
    .option('--started-at <iso>', 'when the call started, ISO 8601 with a zone (default: now)')
    .action((orgId: string, o, cmd) =>
      ctx.send(
        cmd,
        {
          method: 'POST',
          path: `/admin/orgs/${seg(orgId)}/calls`,
          body: { to: o.to, from: o.from, started_at: o.startedAt },
        },
        callView,
      ),
    );
};
