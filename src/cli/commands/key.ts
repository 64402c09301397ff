import { SCOPES } from '../../domain/vocabulary.js';
import { fields, secretView, type View } from '../output.js';
import { adminCollection, orgCollection } from './collection.js';
import { col, filter, listView } from './listing.js';
import { type CommandGroup, integer, list } from './shared.js';

/** The secret is the point of these answers and cannot be fetched again. */
const issuedView = secretView('api_key', 'store it now; it cannot be shown again');

const keyView: View = {
  primary: (key) => key.key_id,
  human: (key) => fields(key),
};

/** Keys are issued and listed under their organization, then named by their id alone. */
const orgKeys = orgCollection('keys', 'key_id');
const keys = adminCollection('keys', 'key_id');

export const keyCommands: CommandGroup = (program, ctx) => {
  const key = program.command('key').description('API keys of an organization');

  orgKeys
    .create(key, ctx, 'issue an API key', issuedView, (o) => ({
      scopes: o.scopes,
      expires_at: o.expiresAt,
      label: o.label,
      buyer_id: o.buyer,
    }))
    .requiredOption('--scopes <list>', `comma-separated: ${SCOPES.join(', ')}`, list)
    .option('--expires-at <iso>', 'expiry, ISO 8601 with a zone (default: never)')
    .option('--label <label>', 'a note for people, e.g. where the key is used')
    .option(
      '--buyer <buyer_id>',
      "bind the key to a buyer: it posts buyer reports on that buyer's calls only (needs execute)",
    );

  orgKeys.list(key, ctx, {
    description: "list an organization's keys (never the key itself)",
    filters: [filter('--status <status>', 'only active, revoked or expired keys')],
    view: listView('key_id', [
      col('KEY_ID', 'key_id'),
      col('PREFIX', 'key_prefix'),
      col('SCOPES', 'scopes'),
      col('LABEL', 'label'),
      col('EXPIRES_AT', 'expires_at'),
      col('REVOKED_AT', 'revoked_at'),
      col('CREATED_AT', 'created_at'),
    ]),
  });

  keys.show(key, ctx, 'show a key (never the key itself)', keyView);

  keys
    .member(key, 'scopes', "replace a key's scopes")
    .requiredOption('--scopes <list>', `comma-separated: ${SCOPES.join(', ')}`, list)
    .action(
      keys.send(ctx, keyView, (at, o) => ({
        method: 'PATCH',
        path: at(),
        body: { scopes: o.scopes },
      })),
    );

  keys.post(key, ctx, 'revoke', 'revoke a key now', keyView);

  keys
    .post(
      key,
      ctx,
      'rotate',
      'issue a replacement key; the old one stops after the grace period',
      issuedView,
      (o) => ({ grace_seconds: o.graceSeconds }),
    )
    .option('--grace-seconds <n>', 'how long the old key keeps working (default 0)', integer);
};
