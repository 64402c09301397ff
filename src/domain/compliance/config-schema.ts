/**
 * The compliance part of a campaign `config` (contract §5, docs/outbound.md) as TypeBox schemas:
 * the admin API validates a config with them on write (Pydantic's 422 shape, src/http/validate.ts),
 * a touch rechecks the stored one (outbound/campaign-config.ts), and the engine's types are their
 * `Static`. What a schema cannot say is a named `x-check` (outbound/config-checks.ts). Imports
 * nothing but TypeBox and the vocabulary, so every layer can use it.
 *
 * Sub-objects refuse unknown keys: a key the engine would ignore (a misspelt cap) would loosen
 * what the operator meant to tighten.
 */
import Type, { type Static } from 'typebox';
import { literals } from '../schema.js';
import { CHANNELS, CONSENT_BASES, PURPOSES } from '../vocabulary.js';

export const TouchChannelSchema = literals(CHANNELS);

const Tier = literals(CONSENT_BASES);

const Day = Type.Union([
  Type.Literal('sun'),
  Type.Literal('mon'),
  Type.Literal('tue'),
  Type.Literal('wed'),
  Type.Literal('thu'),
  Type.Literal('fri'),
  Type.Literal('sat'),
]);

/** 00:00 to 24:00, what `parseHhmm` (tables.ts) reads. */
const Hhmm = Type.String({
  pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$',
  description: 'HH:MM, 00:00 to 24:00',
});

export const CallingWindow = Type.Object(
  {
    start: Hhmm,
    end: Hhmm,
    days: Type.Optional(Type.Array(Day, { description: 'Weekdays it is open; absent: every day' })),
  },
  {
    additionalProperties: false,
    'x-check': 'window_order',
    description: "The campaign's own window, local time in every zone; it can only narrow",
  },
);
export type CallingWindow = Static<typeof CallingWindow>;

const cap = (description: string) => Type.Optional(Type.Integer({ minimum: 0, description }));

export const FrequencyCaps = Type.Object(
  {
    per_24h: cap('Touches per rolling 24 h (default 3)'),
    per_7d: cap('Touches per rolling 7 days (default 7)'),
    voicemail_per_24h: cap('Voicemail drops per rolling 24 h (default 1)'),
    sms_per_24h: cap('Texts per rolling 24 h (default 2)'),
  },
  { additionalProperties: false, description: 'Only values below the defaults have an effect' },
);
export type FrequencyCapsConfig = Static<typeof FrequencyCaps>;

const RequiredTier = Type.Object(
  { call: Type.Optional(Tier), sms: Type.Optional(Tier), voicemail: Type.Optional(Tier) },
  {
    additionalProperties: false,
    description: 'Per-channel tier the campaign requires; only raises the default requirement',
  },
);

/** The keys the engine reads; a variant carries the same keys. */
export const complianceFields = {
  purpose: Type.Optional(
    literals(PURPOSES, {
      description: 'Default marketing; informational: federal window only, pec required',
    }),
  ),
  allowed_channels: Type.Optional(
    Type.Array(TouchChannelSchema, { description: 'Default: every channel' }),
  ),
  calling_window: Type.Optional(CallingWindow),
  frequency_caps: Type.Optional(FrequencyCaps),
  required_tier: Type.Optional(RequiredTier),
  /**
   * Marketing touches whose outcome depends on the national DNC list need a registry copy at most
   * 31 days old (Part B §1.5). Absent: on for marketing; `false` turns the freshness rule off.
   */
  dnc_scrub: Type.Optional(
    Type.Boolean({ description: 'false turns the 31-day national-list freshness rule off' }),
  ),
  /** The campaign attests live, agent-dialed calls: an `ebr` in its window passes a DNC hit. */
  agent_dialed: Type.Optional(
    Type.Boolean({ description: 'Live agent-dialed calls: an ebr call passes a DNC hit' }),
  ),
};

/** The compliance part of a config; other keys pass through untouched. */
export const ComplianceConfig = Type.Object(complianceFields, { additionalProperties: true });
export type CampaignComplianceConfig = Static<typeof ComplianceConfig>;
