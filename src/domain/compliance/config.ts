import { CHANNELS } from '../vocabulary.js';
import { parseHhmm } from './tables.js';
import type {
  CallingWindow,
  CampaignComplianceConfig,
  Channel,
  ConsentBasis,
  ConsentTier,
  FrequencyCapsConfig,
  Purpose,
} from './types.js';

export { CHANNELS };

const TIER_RANK: Record<ConsentTier, number> = { none: 0, ebr: 1, pec: 2, pewc: 3 };

export function tierRank(tier: ConsentTier): number {
  return TIER_RANK[tier];
}

export function higherTier<T extends ConsentTier>(a: T, b: T): T {
  return tierRank(a) >= tierRank(b) ? a : b;
}

/** Whether marketing touches need a fresh national DNC scrub: on for marketing unless set off. */
export function scrubRequired(config: CampaignComplianceConfig | undefined): boolean {
  return purposeOf(config) === 'marketing' && config?.dnc_scrub !== false;
}

export function purposeOf(config: CampaignComplianceConfig | undefined): Purpose {
  return config?.purpose ?? 'marketing';
}

/** Part A point 3, raised (never lowered) by the campaign's `required_tier`. */
export function requiredTier(channel: Channel, config?: CampaignComplianceConfig): ConsentBasis {
  const base: ConsentBasis = purposeOf(config) === 'marketing' ? 'pewc' : 'pec';
  const override = config?.required_tier?.[channel];
  return override ? higherTier(base, override) : base;
}

function intersectWindows(a?: CallingWindow, b?: CallingWindow): CallingWindow | undefined {
  if (!a || !b) return a ?? b;
  const start = parseHhmm(a.start) >= parseHhmm(b.start) ? a.start : b.start;
  const end = parseHhmm(a.end) <= parseHhmm(b.end) ? a.end : b.end;
  const days = a.days && b.days ? a.days.filter((d) => b.days?.includes(d)) : (a.days ?? b.days);
  return days ? { start, end, days } : { start, end };
}

function minCaps(
  a?: FrequencyCapsConfig,
  b?: FrequencyCapsConfig,
): FrequencyCapsConfig | undefined {
  if (!a || !b) return a ?? b;
  const out: FrequencyCapsConfig = { ...a };
  for (const key of Object.keys(b) as (keyof FrequencyCapsConfig)[]) {
    const bv = b[key];
    const av = a[key];
    if (bv !== undefined) out[key] = av === undefined ? bv : Math.min(av, bv);
  }
  return out;
}

/**
 * The campaign config for a touch: `base` merged with the selected `variant` (contract §5).
 * Keys the engine does not know (caller id, templates…) are overridden by the variant; the
 * compliance keys only narrow: channels intersect, windows intersect, caps take the minimum,
 * required tiers the maximum, and `marketing` wins over `informational` (a variant cannot turn
 * a marketing campaign into an informational one). `variants` itself is not carried over.
 */
export function mergeConfig<T extends CampaignComplianceConfig>(
  base: T & { variants?: unknown },
  variant?: Partial<T>,
): T {
  const { variants: _variants, ...rest } = base;
  const baseConfig = rest as unknown as T;
  if (!variant) return baseConfig;
  const merged: T = { ...baseConfig, ...variant };
  const purposes = [baseConfig.purpose ?? 'marketing', variant.purpose ?? baseConfig.purpose];
  merged.purpose = purposes.includes('marketing') ? 'marketing' : 'informational';
  if (baseConfig.allowed_channels && variant.allowed_channels) {
    merged.allowed_channels = baseConfig.allowed_channels.filter((c) =>
      variant.allowed_channels?.includes(c),
    );
  }
  const window = intersectWindows(baseConfig.calling_window, variant.calling_window);
  if (window) merged.calling_window = window;
  const caps = minCaps(baseConfig.frequency_caps, variant.frequency_caps);
  if (caps) merged.frequency_caps = caps;
  if (baseConfig.required_tier && variant.required_tier) {
    const tiers = { ...baseConfig.required_tier };
    for (const channel of CHANNELS) {
      const v = variant.required_tier[channel];
      const b = tiers[channel];
      if (v) tiers[channel] = b ? higherTier(b, v) : v;
    }
    merged.required_tier = tiers;
  }
  // The scrub can only be switched on by either; an agent-dialed attestation needs both.
  if (baseConfig.dnc_scrub === true || variant.dnc_scrub === true) merged.dnc_scrub = true;
  if (baseConfig.agent_dialed !== true || variant.agent_dialed === false) {
    delete merged.agent_dialed;
  }
  return merged;
}
