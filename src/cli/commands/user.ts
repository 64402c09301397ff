import { Option } from 'commander';
import { fields, type View } from '../output.js';
import type { CommandGroup } from './shared.js';

const ROLES = ['operator', 'manager', 'viewer'];

const userView: View = { primary: (u) => u.user_id, human: (u) => fields(u) };
const linkView: View = { primary: (l) => l.url, human: (l) => fields(l) };

/** Standard input to its end, without the final newline a shell or `echo` adds. */
async function readStdin(
  input: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** Web console users (docs/console.md): the first operator, invitations and reset links. */
export const userCommands: CommandGroup = (program, ctx) => {
  const user = program
    .command('user')
    .description('web console users, invitations and password resets');

  user
    .command('create')
    .description('create a console user; the password is read from standard input')
    .requiredOption('--email <email>', 'their sign-in address')
    .addOption(
      new Option('--role <role>', 'operator, or manager/viewer of --org')
        .choices(ROLES)
        .makeOptionMandatory(),
    )
    .option('--org <org_id>', 'the organization of a manager or viewer')
    .requiredOption('--password-stdin', 'read the password from standard input (never an argument)')
    .action(async (o, cmd) => {
      const password = await readStdin(ctx.stdin());
      await ctx.send(
        cmd,
        {
          method: 'POST',
          path: '/admin/console/users',
          body: { email: o.email, role: o.role, password, ...(o.org ? { org_id: o.org } : {}) },
        },
        userView,
      );
    });

  user
    .command('invite')
    .description('make an invitation link (shown once; it expires)')
    .requiredOption('--email <email>', 'who is invited')
    .addOption(
      new Option('--role <role>', 'operator, manager or viewer')
        .choices(ROLES)
        .makeOptionMandatory(),
    )
    .option('--org <org_id>', 'the organization of a manager or viewer')
    .action((o, cmd) =>
      ctx.send(
        cmd,
        {
          method: 'POST',
          path: '/admin/console/links',
          body: {
            kind: 'invitation',
            email: o.email,
            role: o.role,
            ...(o.org ? { org_id: o.org } : {}),
          },
        },
        linkView,
      ),
    );

  user
    .command('reset-link')
    .description('make a password-reset link for an existing user (shown once; it expires)')
    .requiredOption('--email <email>', 'whose password')
    .action((o, cmd) =>
      ctx.send(
        cmd,
        { method: 'POST', path: '/admin/console/links', body: { kind: 'reset', email: o.email } },
        linkView,
      ),
    );
};
