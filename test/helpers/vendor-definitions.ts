import { createRequire } from 'node:module';
import protobuf from 'protobufjs';

/**
 * The vendors' own published definitions of what the service sends, taken from their registry
 * packages, and a judge for each: a request is checked field by field against them, so a
 * field the vendor does not define, a required one left out, a wrong type or an unknown enum
 * value is a failure naming the path. These are what the fakes cannot give: the fakes were
 * written from the same reading as the clients.
 */
const require = createRequire(import.meta.url);

let dataManagerRoot: protobuf.Namespace | undefined;
let adsRoot: protobuf.Namespace | undefined;

/** Data Manager API v1, from `@google-ads/datamanager/build/protos/protos.json`. */
export function dataManagerType(name: string): protobuf.Type {
  dataManagerRoot ??= protobuf.Root.fromJSON(
    require('@google-ads/datamanager/build/protos/protos.json'),
  ).resolveAll();
  return dataManagerRoot!.lookupType(`google.ads.datamanager.v1.${name}`);
}

/**
 * Google Ads API v25: the types of the conversion requests, cut from the registry package
 * google-ads-node 25.1.0's `build/protos/protos.json` by scripts/vendor-google-ads-protos.mjs
 * (the package needs Node 22; the service supports Node 20).
 */
export function googleAdsType(name: string): protobuf.Type {
  adsRoot ??= protobuf.Root.fromJSON(require('../vendor/google-ads-v25.json')).resolveAll();
  return adsRoot!.lookupType(`google.ads.googleads.v25.services.${name}`);
}

const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

function required(f: protobuf.Field): boolean {
  const b = f.options?.['(google.api.field_behavior)'];
  return Array.isArray(b) ? b.includes('REQUIRED') : b === 'REQUIRED';
}

function isEmpty(v: unknown) {
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0);
}

/** A proto3 JSON value (REST mapping) → the protobufjs object form, collecting problems. */
function scalar(f: protobuf.Field, v: unknown, path: string, problems: string[]): unknown {
  const t = f.resolvedType;
  if (t instanceof protobuf.Enum) {
    if (typeof v === 'string' && v in t.values) return v;
    if (typeof v === 'number' && Object.values(t.values).includes(v)) return v;
    problems.push(`${path}: ${JSON.stringify(v)} is not a value of ${t.name}`);
    return v;
  }
  if (t instanceof protobuf.Type) {
    if (t.fullName === '.google.protobuf.Timestamp') {
      if (typeof v !== 'string' || !RFC3339.test(v) || Number.isNaN(Date.parse(v))) {
        problems.push(`${path}: ${JSON.stringify(v)} is not an RFC 3339 timestamp`);
        return {};
      }
      const ms = Date.parse(v);
      return { seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 };
    }
    return walk(t, v, path, problems);
  }
  const ok: Record<string, (x: unknown) => boolean> = {
    string: (x) => typeof x === 'string',
    bool: (x) => typeof x === 'boolean',
    double: (x) => typeof x === 'number' && Number.isFinite(x),
    float: (x) => typeof x === 'number' && Number.isFinite(x),
    int32: (x) => Number.isInteger(x),
    uint32: (x) => Number.isInteger(x),
    int64: (x) => Number.isInteger(x) || (typeof x === 'string' && /^-?\d+$/.test(x)),
    uint64: (x) => Number.isInteger(x) || (typeof x === 'string' && /^\d+$/.test(x)),
    bytes: (x) => typeof x === 'string',
  };
  if (!(ok[f.type]?.(v) ?? false))
    problems.push(`${path}: ${JSON.stringify(v)} is not a ${f.type}`);
  return v;
}

/**
 * Walks a JSON object against a message type: every key must be a field of the type (by its
 * proto name or its lowerCamelCase JSON name), every REQUIRED field must be present, at most
 * one member of a oneof may be set. Returns the object in protobufjs form.
 */
function walk(type: protobuf.Type, json: unknown, path: string, problems: string[]) {
  const out: Record<string, unknown> = {};
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    problems.push(`${path}: expected a ${type.name} object`);
    return out;
  }
  const byJsonName = new Map<string, protobuf.Field>();
  for (const f of type.fieldsArray) {
    byJsonName.set(f.name, f);
    byJsonName.set(camel(f.name), f);
  }
  for (const [key, v] of Object.entries(json)) {
    const f = byJsonName.get(key);
    const at = `${path}.${key}`;
    if (!f) {
      problems.push(`${at}: not a field of ${type.fullName.slice(1)}`);
      continue;
    }
    if (f.repeated) {
      if (!Array.isArray(v)) {
        problems.push(`${at}: expected a list`);
        continue;
      }
      out[f.name] = v.map((x, i) => scalar(f, x, `${at}[${i}]`, problems));
    } else {
      out[f.name] = scalar(f, v, at, problems);
    }
  }
  for (const f of type.fieldsArray) {
    if (required(f) && isEmpty(out[f.name]))
      problems.push(`${path}.${camel(f.name)}: required by ${type.name}`);
  }
  for (const o of type.oneofsArray) {
    const set = o.fieldsArray.filter((f) => out[f.name] !== undefined);
    if (set.length > 1)
      problems.push(`${path}: ${set.map((f) => f.name).join(' and ')} are one of`);
  }
  return out;
}

/**
 * Every problem of a REST body against its request message, [] when it conforms: the walk
 * above, then protobufjs `fromObject` and `verify` on the result.
 */
export function protoProblems(type: protobuf.Type, body: unknown): string[] {
  const problems: string[] = [];
  const obj = walk(type, body, type.name, problems);
  if (problems.length > 0) return problems;
  const err = type.verify(type.fromObject(obj));
  return err ? [`${type.name}: ${err}`] : [];
}

/**
 * Meta's official SDK (facebook-nodejs-business-sdk): the event is rebuilt through the SDK's
 * setters (a key the SDK has no setter for is a problem) and `ServerEvent.normalize()` must
 * give back the very event, so it is hashed, cased and typed as Meta's normaliser wants.
 */
export function metaProblems(event: Record<string, any>): string[] {
  const sdk = require('facebook-nodejs-business-sdk');
  const problems: string[] = [];
  const setterOf: Record<string, string> = { ph: 'setPhones', em: 'setEmails' };
  const build = (
    Cls: any,
    json: Record<string, any>,
    path: string,
    nested: Record<string, any>,
  ) => {
    const o = new Cls();
    for (const [k, v] of Object.entries(json)) {
      const setter =
        setterOf[k] ?? `set${k.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase())}`;
      if (typeof o[setter] !== 'function') {
        problems.push(`${path}.${k}: not a field of Meta's ${Cls.name}`);
        continue;
      }
      o[setter](nested[k] ? build(nested[k], v, `${path}.${k}`, {}) : v);
    }
    return o;
  };
  const built = build(sdk.ServerEvent, event, 'event', {
    user_data: sdk.UserData,
    custom_data: sdk.CustomData,
  });
  if (problems.length > 0) return problems;
  const normal = JSON.parse(JSON.stringify(built.normalize()));
  if (JSON.stringify(sortKeys(normal)) !== JSON.stringify(sortKeys(event))) {
    problems.push(
      `normalize() changed the event: sent ${JSON.stringify(event)}, normalised ${JSON.stringify(normal)}`,
    );
  }
  return problems;
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(
    Object.entries(v)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, x]) => [k, sortKeys(x)]),
  );
}

/**
 * Microsoft publishes no npm package for Microsoft Advertising, so its objects are written
 * here from its reference pages (each named), as field → type, required or not.
 */
type FieldSpec = { type: 'string' | 'number' | 'datetime'; required?: boolean };
export const MICROSOFT_REFERENCE = {
  OfflineConversion: {
    page: 'https://learn.microsoft.com/en-us/advertising/campaign-management-service/offlineconversion?view=bingads-13',
    fields: {
      ConversionCurrencyCode: { type: 'string' },
      ConversionName: { type: 'string', required: true },
      ConversionTime: { type: 'datetime', required: true },
      ConversionValue: { type: 'number' },
      ExternalAttributionCredit: { type: 'number' },
      ExternalAttributionModel: { type: 'string' },
      HashedEmailAddress: { type: 'string' },
      HashedPhoneNumber: { type: 'string' },
      MicrosoftClickId: { type: 'string' },
    } as Record<string, FieldSpec>,
  },
  OfflineConversionAdjustment: {
    page: 'https://learn.microsoft.com/en-us/advertising/campaign-management-service/offlineconversionadjustment?view=bingads-13',
    fields: {
      AdjustmentCurrencyCode: { type: 'string' },
      AdjustmentTime: { type: 'datetime', required: true },
      AdjustmentType: { type: 'string', required: true },
      AdjustmentValue: { type: 'number' },
      ConversionName: { type: 'string', required: true },
      // The conversion adjusted is named by click id, conversion name and conversion time.
      ConversionTime: { type: 'datetime', required: true },
      HashedEmailAddress: { type: 'string' },
      HashedPhoneNumber: { type: 'string' },
      MicrosoftClickId: { type: 'string' },
    } as Record<string, FieldSpec>,
  },
} as const;

/**
 * The Measurement Protocol (GA4) has no client package either; its request body and event are
 * written from Google's reference page. Event and parameter names follow its naming rules.
 */
export const GA4_REFERENCE = {
  page: 'https://developers.google.com/analytics/devguides/collection/protocol/ga4/reference',
  body: {
    client_id: { type: 'string', required: true },
    user_id: { type: 'string' },
    timestamp_micros: { type: 'number' },
    user_properties: { type: 'object' },
    consent: { type: 'object' },
    non_personalized_ads: { type: 'boolean' },
    user_data: { type: 'object' },
    events: { type: 'array', required: true },
    user_location: { type: 'object' },
    ip_override: { type: 'string' },
    device: { type: 'object' },
    validation_behavior: { type: 'string' },
  } as Record<string, { type: string; required?: boolean }>,
  consent: ['ad_user_data', 'ad_personalization'],
  consentValues: ['GRANTED', 'DENIED'],
  /** Names: letters, digits and underscores, starting with a letter, at most 40 characters. */
  name: /^[A-Za-z][A-Za-z0-9_]{0,39}$/,
  reservedPrefixes: ['_', 'firebase_', 'ga_', 'google_', 'gtag.'],
  maxEvents: 25,
} as const;

function typeOk(type: string, v: unknown) {
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'array':
      return Array.isArray(v);
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    case 'datetime':
      return typeof v === 'string' && RFC3339.test(v);
    default:
      return false;
  }
}

/** Problems of one Microsoft object against its field list. */
export function microsoftProblems(
  object: keyof typeof MICROSOFT_REFERENCE,
  row: Record<string, unknown>,
): string[] {
  const fields = MICROSOFT_REFERENCE[object].fields;
  const out: string[] = [];
  for (const [k, v] of Object.entries(row)) {
    const f = fields[k];
    if (!f) out.push(`${object}.${k}: not a field (${MICROSOFT_REFERENCE[object].page})`);
    else if (!typeOk(f.type, v))
      out.push(`${object}.${k}: ${JSON.stringify(v)} is not a ${f.type}`);
  }
  for (const [k, f] of Object.entries(fields)) {
    if (f.required && row[k] === undefined) out.push(`${object}.${k}: required`);
  }
  return out;
}

/** Problems of a Measurement Protocol body against the reference. */
export function ga4Problems(body: Record<string, any>): string[] {
  const r = GA4_REFERENCE;
  const out: string[] = [];
  for (const [k, v] of Object.entries(body)) {
    const f = r.body[k];
    if (!f) out.push(`body.${k}: not a field (${r.page})`);
    else if (!typeOk(f.type, v)) out.push(`body.${k}: ${JSON.stringify(v)} is not a ${f.type}`);
  }
  for (const [k, f] of Object.entries(r.body)) {
    if (f.required && body[k] === undefined) out.push(`body.${k}: required`);
  }
  for (const [k, v] of Object.entries(body.consent ?? {})) {
    if (!(r.consent as readonly string[]).includes(k)) out.push(`consent.${k}: not a field`);
    else if (!(r.consentValues as readonly string[]).includes(v as string))
      out.push(`consent.${k}: ${JSON.stringify(v)} is not GRANTED or DENIED`);
  }
  const events: any[] = Array.isArray(body.events) ? body.events : [];
  if (events.length > r.maxEvents) out.push(`events: more than ${r.maxEvents}`);
  const named = (n: unknown, at: string) => {
    if (typeof n !== 'string' || !r.name.test(n))
      out.push(`${at}: ${JSON.stringify(n)} breaks the naming rules`);
    else if (r.reservedPrefixes.some((p) => n.startsWith(p)))
      out.push(`${at}: ${n} uses a reserved prefix`);
  };
  events.forEach((e, i) => {
    for (const k of Object.keys(e)) {
      if (k !== 'name' && k !== 'params') out.push(`events[${i}].${k}: not a field`);
    }
    named(e.name, `events[${i}].name`);
    for (const [k, v] of Object.entries(e.params ?? {})) {
      named(k, `events[${i}].params.${k}`);
      if (
        typeof v !== 'string' &&
        typeof v !== 'number' &&
        typeof v !== 'boolean' &&
        !Array.isArray(v)
      )
        out.push(`events[${i}].params.${k}: not a scalar`);
    }
  });
  return out;
}
