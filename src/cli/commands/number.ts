import { seg } from '../client.js';
import { type Answer, fields, type View } from '../output.js';
import { col, listView, paged, pageQuery } from './listing.js';
import type { CommandGroup } from './shared.js';

const holder = (n: Answer) => (n.holder ?? null) as Answer | null;
const path = (orgId: string, code: string) =>
  `/admin/orgs/${seg(orgId)}/campaigns/${seg(code)}/numbers`;

/** The holder's two ids on their own lines, so `show` stays `key: value`. */
const numberView: View = {
  primary: (n) => n.e164,
  human: (n) =>
    fields(
      {
        ...n,
        holder_session: holder(n)?.dni_session_id ?? null,
        holder_visitor: holder(n)?.visitor_id ?? null,
      },
      ['holder'],
    ),
};

export const numberCommands: CommandGroup = (program, ctx) => {
  const number = program
    .command('number')
    .description("a campaign's tracking numbers and who holds them now");

  paged(number.command('list').description("list a campaign's numbers in number order"))
    .argument('<org_id>')
    .argument('<code>')
    .option('--role <role>', 'only pool or overflow numbers')
    .option('--state <state>', 'held (a live DNI session holds it) or free')
    .action((orgId: string, code: string, o, cmd) =>
      ctx.send(
        cmd,
        {
          method: 'GET',
          path: path(orgId, code),
          query: { ...pageQuery(o), role: o.role, state: o.state },
        },
        listView('e164', [
          col('NUMBER', 'e164'),
          col('ROLE', 'role'),
          { header: 'SESSION', cell: (n) => holder(n)?.dni_session_id },
          { header: 'VISITOR', cell: (n) => holder(n)?.visitor_id },
          col('HELD_UNTIL', 'held_until'),
          col('LAST_ASSIGNED_AT', 'last_assigned_at'),
        ]),
      ),
    );

  number
    .command('show')
    .description('show one number and its current holder')
    .argument('<org_id>')
    .argument('<code>')
    .argument('<e164>')
    .action((orgId: string, code: string, e164: string, _o, cmd) =>
      ctx.send(cmd, { method: 'GET', path: `${path(orgId, code)}/${seg(e164)}` }, numberView),
    );
};
