import { seg } from '../client.js';
import { fields, type View } from '../output.js';
import { type CommandGroup, integer, list } from './shared.js';

/** The secret is the point of these answers and cannot be fetched again, so it stands apart. */
const issuedView: View = {
  primary: (key) => key.api_key,
  human: (key) =>
    [
      fields(key, ['api_key']),
      '',
      'api_key (shown once, store it now; it cannot be shown again):',
      '',
      `    ${key.api_key}`,
      '',
    ].join('\n'),
};

const keyView: View = {
  primary: (key) => key.key_id,
  human: (key) => fields(key),
};

export const keyCommands: CommandGroup = (program, ctx) => {
  const key = program.command('key').description('API keys of an organization');

  key
    .command('create')
    .description('issue an API key')
    .argument('<org_id>')
    .requiredOption('--scopes <list>', 'comma-separated: enroll, execute', list)
    .option('--expires-at <iso>', 'expiry, ISO 8601 with a zone (default: never)')
    .option('--label <label>', 'a note for people, e.g. where the key is used')
    .action((orgId: string, o, cmd) =>
      ctx.send(
        cmd,
        {
          method: 'POST',
          path: `/admin/orgs/${seg(orgId)}/keys`,
          body: { scopes: o.scopes, expires_at: o.expiresAt, label: o.label },
        },
        issuedView,
      ),
    );

  key
    .command('scopes')
    .description("replace a key's scopes")
    .argument('<key_id>')
    .requiredOption('--scopes <list>', 'comma-separated: enroll, execute', list)
    .action((keyId: string, o, cmd) =>
      ctx.send(
        cmd,
        { method: 'PATCH', path: `/admin/keys/${seg(keyId)}`, body: { scopes: o.scopes } },
        keyView,
      ),
    );

  key
    .command('revoke')
    .description('revoke a key now')
    .argument('<key_id>')
    .action((keyId: string, _o, cmd) =>
      ctx.send(cmd, { method: 'POST', path: `/admin/keys/${seg(keyId)}/revoke` }, keyView),
    );

  key
    .command('rotate')
    .description('issue a replacement key; the old one stops after the grace period')
    .argument('<key_id>')
    .option('--grace-seconds <n>', 'how long the old key keeps working (default 0)', integer)
    .action((keyId: string, o, cmd) =>
      ctx.send(
        cmd,
        {
          method: 'POST',
          path: `/admin/keys/${seg(keyId)}/rotate`,
          body: o.graceSeconds === undefined ? {} : { grace_seconds: o.graceSeconds },
        },
        issuedView,
      ),
    );
};
