import { seg } from '../client.js';
import { type Answer, fields, type View } from '../output.js';
import { collection } from './collection.js';
import { col, filter, listView } from './listing.js';
import type { CommandGroup } from './shared.js';

const holder = (n: Answer) => (n.holder ?? null) as Answer | null;
const numbers = collection(
  ['org_id', 'code'],
  ([orgId, code]) => `/admin/orgs/${seg(orgId!)}/campaigns/${seg(code!)}/numbers`,
  'e164',
);

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

  numbers.list(number, ctx, {
    description: "list a campaign's numbers in number order",
    filters: [
      filter('--role <role>', 'only pool or overflow numbers'),
      filter('--state <state>', 'held (a live DNI session holds it) or free'),
    ],
    view: listView('e164', [
      col('NUMBER', 'e164'),
      col('ROLE', 'role'),
      { header: 'SESSION', cell: (n) => holder(n)?.dni_session_id },
      { header: 'VISITOR', cell: (n) => holder(n)?.visitor_id },
      col('HELD_UNTIL', 'held_until'),
      col('LAST_ASSIGNED_AT', 'last_assigned_at'),
    ]),
  });

  numbers.show(number, ctx, 'show one number and its current holder', numberView);
};
