import { errors } from '../../errors.js';
import { newId } from '../ids.js';
import type { Executor } from '../ports.js';
import { API_VERSIONS, versionOf, versionProblem, versionWarning } from './api-versions.js';
import type { Destination, DestinationChange, DestinationRepos, Money, Trigger } from './ports.js';
import { maskSecrets, type SecretBox } from './secrets.js';
import { CONSENT_STATES, GOOGLE_APIS, PLATFORM_FIELDS, type Platform } from './vocabulary.js';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** ISO 4217 as the runtime's ICU knows it (active codes), for the `iso_4217` x-check. */
export function currencyProblem(value: unknown): string | null {
  return typeof value === 'string' && CURRENCIES.has(value)
    ? null
    : 'must be an ISO 4217 currency code, such as USD or EUR';
}

export interface DestinationInput {
  platform: Platform;
  name: string;
  campaigns?: string[] | null | undefined;
  trigger?: Trigger | undefined;
  value?: Money | null | undefined;
  settings: Record<string, string>;
  secrets: Record<string, string>;
  enabled?: boolean | undefined;
}

export type DestinationPatch = Partial<Omit<DestinationInput, 'platform'>>;

type Problem = { loc: (string | number)[]; msg: string; input: unknown };

const digits = (s: string) => s.replace(/-/g, '');
const zoneOk = (z: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: z });
    return true;
  } catch {
    return false;
  }
};

/** Format rules per setting, beyond presence: each answers a problem or null. */
const SETTING_RULES: Record<string, (v: string, p: Platform) => string | null> = {
  customer_id: (v, p) =>
    p === 'google_ads'
      ? /^\d{10}$/.test(digits(v))
        ? null
        : 'must be a 10-digit Google Ads customer id, such as 123-456-7890'
      : /^\d{1,20}$/.test(v)
        ? null
        : 'must be the Microsoft Advertising customer id (digits)',
  login_customer_id: (v) =>
    /^\d{10}$/.test(digits(v)) ? null : 'must be a 10-digit Google Ads manager customer id',
  conversion_action: (v) =>
    /^\d{1,20}$/.test(v) || /^customers\/\d{10}\/conversionActions\/\d{1,20}$/.test(v)
      ? null
      : 'must be a conversion action id or its resource name customers/{id}/conversionActions/{id}',
  time_zone: (v) => (zoneOk(v) ? null : 'must be an IANA time zone name, such as America/Chicago'),
  pixel_id: (v) => (/^\d{5,20}$/.test(v) ? null : 'must be the Meta pixel (dataset) id, digits'),
  account_id: (v) =>
    /^\d{1,20}$/.test(v) ? null : 'must be the Microsoft Advertising account id (digits)',
  measurement_id: (v) =>
    /^G-[A-Z0-9]{4,20}$/.test(v) ? null : 'must be a GA4 measurement id, such as G-ABC123XYZ',
  api: (v) =>
    (GOOGLE_APIS as readonly string[]).includes(v)
      ? null
      : `must be one of ${GOOGLE_APIS.join(', ')}`,
  consent: (v) =>
    (CONSENT_STATES as readonly string[]).includes(v)
      ? null
      : `must be one of ${CONSENT_STATES.join(', ')}`,
};

function triggerProblems(t: Trigger | undefined): Problem[] {
  if (!t) return [];
  if (t.event === 'answered_call' && t.min_seconds === undefined) {
    return [
      { loc: ['body', 'trigger', 'min_seconds'], msg: 'answered_call needs min_seconds', input: t },
    ];
  }
  if (t.event === 'buyer_success' && t.min_seconds !== undefined) {
    return [
      {
        loc: ['body', 'trigger', 'min_seconds'],
        msg: 'only answered_call takes min_seconds',
        input: t,
      },
    ];
  }
  return [];
}

/** Every problem of a destination's platform fields, at once (contract §2: all fields listed). */
export function fieldProblems(
  platform: Platform,
  settings: Record<string, string>,
  secrets: Record<string, string> | null,
): Problem[] {
  const f = PLATFORM_FIELDS[platform];
  const out: Problem[] = [];
  for (const k of f.settings) {
    if (!settings[k])
      out.push({
        loc: ['body', 'settings', k],
        msg: `${platform} needs settings.${k}`,
        input: settings,
      });
  }
  for (const [k, v] of Object.entries(settings)) {
    if (!f.settings.includes(k) && !f.optionalSettings.includes(k)) {
      out.push({ loc: ['body', 'settings', k], msg: `not a setting of ${platform}`, input: v });
    } else if (v && SETTING_RULES[k]) {
      const p = SETTING_RULES[k](v, platform);
      if (p) out.push({ loc: ['body', 'settings', k], msg: p, input: v });
    }
  }
  if (settings.api_version) {
    const p = versionProblem(platform, settings);
    if (p)
      out.push({ loc: ['body', 'settings', 'api_version'], msg: p, input: settings.api_version });
  }
  if (secrets) {
    const required = [
      ...f.secrets,
      // The Google Ads API wants a developer token; the Data Manager API does not.
      ...(platform === 'google_ads' && settings.api === 'google_ads_api'
        ? ['developer_token']
        : []),
    ];
    for (const k of required) {
      if (!secrets[k])
        out.push({
          loc: ['body', 'secrets', k],
          msg: `${platform} needs secrets.${k}`,
          input: '••••',
        });
    }
    for (const k of Object.keys(secrets)) {
      if (!f.secrets.includes(k) && !f.optionalSecrets.includes(k)) {
        out.push({
          loc: ['body', 'secrets', k],
          msg: `not a secret of ${platform}`,
          input: '••••',
        });
      }
    }
  }
  return out;
}

/**
 * Secrets go into HTTP headers and form bodies: a control character (a CR/LF pasted with a
 * token) would make every request fail, so it is refused here, by name, with nothing stored.
 */
export function secretProblems(secrets: Record<string, string> | undefined): Problem[] {
  return Object.entries(secrets ?? {}).flatMap(([k, v]) =>
    typeof v === 'string' && [...v].some((ch) => ch.charCodeAt(0) < 0x20 || ch === '\x7f')
      ? [
          {
            loc: ['body', 'secrets', k],
            msg: 'must not contain control characters (CR, LF, tab…): paste the value alone',
            input: '••••',
          },
        ]
      : [],
  );
}

/**
 * The secrets kept: an empty value is no secret (required ones are refused empty by
 * fieldProblems), so `PATCH secrets: {developer_token: ""}` removes an optional one, and the
 * mask's keys name exactly the secrets held (what retractability.ts reads).
 */
const heldSecrets = (secrets: Record<string, string>) =>
  Object.fromEntries(Object.entries(secrets).filter(([, v]) => v !== ''));

/** Google wants customer ids without dashes in paths and headers. */
function normalSettings(s: Record<string, string>): Record<string, string> {
  const out = { ...s };
  for (const k of ['customer_id', 'login_customer_id']) if (out[k]) out[k] = digits(out[k]);
  return out;
}

/** The API and version a destination's uploads use, with a warning near its retirement. */
export function apiView(destination: Pick<Destination, 'platform' | 'settings'>, now: Date) {
  const v = versionOf(destination.platform, destination.settings);
  if (!v) return null;
  const entry = API_VERSIONS[v.api].find((x) => x.version === v.version);
  return {
    name: v.api,
    version: v.version,
    retires_on: entry?.retiresOn ?? null,
    warning: versionWarning(destination.platform, destination.settings, now)?.message ?? null,
  };
}

export function destinationView(destination: Destination, now: Date) {
  return {
    destination_id: destination.id,
    org_id: destination.orgId,
    platform: destination.platform,
    name: destination.name,
    campaigns: destination.campaigns,
    trigger: destination.trigger,
    value: destination.value,
    settings: destination.settings,
    // Never the secrets themselves: which are set, masked.
    secrets: destination.secretsMask,
    enabled: destination.enabled,
    api: apiView(destination, now),
    created_at: destination.createdAt.toISOString(),
    updated_at: destination.updatedAt.toISOString(),
  };
}

export interface DestinationContext {
  repos: DestinationRepos;
  box: SecretBox | null;
  now: Date;
  requestId: string | null;
}

async function campaignProblems(
  c: DestinationContext,
  orgId: string,
  codes: string[] | null | undefined,
) {
  if (!codes) return [];
  const unknown = new Set(
    await c.repos.destinations.unknownCampaignCodes(c.repos.db, orgId, codes),
  );
  return codes.flatMap((code, i) =>
    unknown.has(code)
      ? [{ loc: ['body', 'campaigns', i], msg: 'not a campaign of this organization', input: code }]
      : [],
  );
}

function sealer(c: DestinationContext): SecretBox {
  if (!c.box) throw errors.secretsKeyMissing();
  return c.box;
}

export async function getDestination(context: DestinationContext, orgId: string, id: string) {
  const d = await context.repos.destinations.getDestination(context.repos.db, orgId, id);
  if (!d) throw errors.destinationNotFound();
  return d;
}

export async function createDestination(
  context: DestinationContext,
  orgId: string,
  input: DestinationInput,
) {
  if (!(await context.repos.orgs.findOrg(context.repos.db, orgId))) throw errors.orgNotFound();
  const problems = [
    ...triggerProblems(input.trigger),
    ...(await campaignProblems(context, orgId, input.campaigns)),
    ...fieldProblems(input.platform, input.settings, input.secrets),
    ...secretProblems(input.secrets),
  ];
  if (problems.length > 0) throw errors.fields(problems);
  const box = sealer(context);
  const d: Destination = {
    id: newId('cdst', context.now.getTime()),
    orgId,
    platform: input.platform,
    name: input.name,
    campaigns: input.campaigns ?? null,
    trigger: input.trigger ?? { event: 'buyer_success' },
    value: input.value ?? null,
    settings: normalSettings(input.settings),
    secrets: box.seal(heldSecrets(input.secrets)),
    secretsMask: maskSecrets(heldSecrets(input.secrets)),
    enabled: input.enabled ?? true,
    createdAt: context.now,
    updatedAt: context.now,
  };
  return context.repos.transaction(async (tx) => {
    const saved = await context.repos.destinations.insertDestination(tx, d);
    await audit(context, tx, orgId, d.id, 'conversion_destination.created', {
      platform: d.platform,
      name: d.name,
    });
    return destinationView(saved, context.now);
  });
}

export async function updateDestination(
  context: DestinationContext,
  orgId: string,
  id: string,
  p: DestinationPatch,
) {
  const d = await getDestination(context, orgId, id);
  const settings = p.settings ? { ...d.settings, ...p.settings } : d.settings;
  const problems = [
    ...triggerProblems(p.trigger),
    ...(await campaignProblems(context, orgId, p.campaigns)),
    ...fieldProblems(
      d.platform,
      settings,
      p.secrets || p.settings ? { ...PLACEHOLDER(d), ...(p.secrets ?? {}) } : null,
    ),
    ...secretProblems(p.secrets),
  ];
  if (problems.length > 0) throw errors.fields(problems);
  const change: DestinationChange = { updatedAt: context.now };
  if (p.name !== undefined) change.name = p.name;
  if (p.campaigns !== undefined) change.campaigns = p.campaigns;
  if (p.trigger !== undefined) change.trigger = p.trigger;
  if (p.value !== undefined) change.value = p.value;
  if (p.enabled !== undefined) change.enabled = p.enabled;
  if (p.settings) change.settings = normalSettings(settings);
  if (p.secrets) {
    const box = sealer(context);
    const merged = heldSecrets({ ...box.open(d.secrets), ...p.secrets });
    change.secrets = box.seal(merged);
    change.secretsMask = maskSecrets(merged);
  }
  return context.repos.transaction(async (tx) => {
    const saved = await context.repos.destinations.updateDestination(tx, orgId, id, change);
    if (!saved) throw errors.destinationNotFound();
    await audit(context, tx, orgId, id, 'conversion_destination.updated', {
      fields: Object.keys(p).filter((k) => k !== 'secrets'),
      secrets_changed: p.secrets ? Object.keys(p.secrets) : [],
    });
    return destinationView(saved, context.now);
  });
}

/** Every required secret counts as present when patching: the stored ones stay. */
const PLACEHOLDER = (d: Destination) =>
  Object.fromEntries(Object.keys(d.secretsMask).map((k) => [k, 'kept']));

export async function deleteDestination(context: DestinationContext, orgId: string, id: string) {
  await context.repos.transaction(async (tx) => {
    if (!(await context.repos.destinations.deleteDestination(tx, orgId, id)))
      throw errors.destinationNotFound();
    await audit(context, tx, orgId, id, 'conversion_destination.deleted', {});
  });
}

function audit(
  c: DestinationContext,
  ex: Executor,
  orgId: string,
  id: string,
  action: string,
  detail: Record<string, unknown>,
) {
  return c.repos.audit.writeAudit(ex, {
    orgId,
    actor: 'admin',
    action,
    subjectType: 'conversion_destination',
    subjectId: id,
    detail,
    requestId: c.requestId,
    at: c.now,
  });
}
