import { SCOPES } from '../../domain/vocabulary.js';
import { seg } from '../client.js';
import { fields, type View } from '../output.js';
import { col, listView, paged, pageQuery } from './listing.js';
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
    .requiredOption('--scopes <list>', `comma-separated: ${SCOPES.join(', ')}`, list)
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

  paged(key.command('list').description("list an organization's keys (never the key itself)"))
    .argument('<org_id>')
    .option('--status <status>', 'only active, revoked or expired keys')
    .action((orgId: string, o, cmd) =>
      ctx.send(
        cmd,
        {
          method: 'GET',
          path: `/admin/orgs/${seg(orgId)}/keys`,
          query: { ...pageQuery(o), status: o.status },
        },
        listView('key_id', [
          col('KEY_ID', 'key_id'),
          col('PREFIX', 'key_prefix'),
          col('SCOPES', 'scopes'),
          col('LABEL', 'label'),
          col('EXPIRES_AT', 'expires_at'),
          col('REVOKED_AT', 'revoked_at'),
          col('CREATED_AT', 'created_at'),
        ]),
      ),
    );

  key
    .command('show')
    .description('show a key (never the key itself)')
    .argument('<key_id>')
    .action((keyId: string, _o, cmd) =>
      ctx.send(cmd, { method: 'GET', path: `/admin/keys/${seg(keyId)}` }, keyView),
    );

  key
    .command('scopes')
    .description("replace a key's scopes")
    .argument('<key_id>')
    .requiredOption('--scopes <list>', `comma-separated: ${SCOPES.join(', ')}`, list)
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
