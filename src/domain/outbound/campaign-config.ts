import { Compile } from 'typebox/compile';
import { mergeConfig } from '../compliance/index.js';
import { configChecks } from './config-checks.js';
import { CampaignConfig, type OutboundConfig } from './config-schema.js';

export type { CampaignConfig, MessageTemplate, OutboundConfig } from './config-schema.js';

const shape = Compile(CampaignConfig);

type Schema = Record<string, unknown>;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Runs the schema's named checks over a value that has its shape, as the admin API does. */
function checkFaults(s: Schema, v: unknown, at: string, out: string[]): void {
  const name = s['x-check'];
  if (typeof name === 'string') {
    const check = configChecks[name];
    if (!check) throw new Error(`no implementation for x-check '${name}'`);
    const text = check(v);
    if (text !== null) out.push(`${at || '/'}: ${text}`);
  }
  if (Array.isArray(v) && isRecord(s.items)) {
    for (const [i, x] of v.entries()) checkFaults(s.items, x, `${at}/${i}`, out);
  }
  if (!isRecord(v)) return;
  for (const [k, p] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
    if (Object.hasOwn(v, k)) checkFaults(p, v[k], `${at}/${k}`, out);
  }
  const each = (s.patternProperties as Record<string, Schema> | undefined)?.['^.*$'];
  if (each) for (const [k, x] of Object.entries(v)) checkFaults(each, x, `${at}/${k}`, out);
}

/**
 * Why a stored campaign config cannot be used for a touch; empty when it can. The admin API
 * refuses such configs on write (the same schema and checks, `CampaignConfig`); this catches one
 * written before that or around it. A stored config is plain JSON as the API kept it, so its
 * shape is checked strictly (TypeBox), without the API's lax coercions.
 */
export function storedConfigProblems(raw: unknown): string[] {
  if (!shape.Check(raw)) {
    return shape.Errors(raw).map((e) => `${e.instancePath || '/'}: ${e.message}`);
  }
  const out: string[] = [];
  checkFaults(CampaignConfig as unknown as Schema, raw, '', out);
  return out;
}

function hasVariant(raw: CampaignConfig, node: string): boolean {
  return raw.variants !== undefined && Object.hasOwn(raw.variants, node);
}

/**
 * The config a touch runs under: the base merged with the `funnel_node` variant (contract §5).
 * Templates merge per template id, so a variant can swap one template and keep the others.
 * Undefined when the node is not a variant of this campaign.
 */
export function touchConfig(
  raw: CampaignConfig,
  funnelNode: string | undefined,
): OutboundConfig | undefined {
  if (funnelNode === undefined) return mergeConfig<OutboundConfig>(raw);
  if (!hasVariant(raw, funnelNode)) return undefined;
  const variant = raw.variants?.[funnelNode] as OutboundConfig;
  const merged = mergeConfig<OutboundConfig>(raw, variant);
  if (raw.templates && variant.templates) {
    merged.templates = { ...raw.templates, ...variant.templates };
  }
  return merged;
}
