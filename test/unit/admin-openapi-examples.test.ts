/**
 * The admin document (GET /admin/openapi.json) as a client generator reads it: every
 * operation answers a schema, every body, success answer and path parameter has an example
 * its schema accepts, every list is `{items, next_cursor}`. A new admin route that misses one
 * fails here by name.
 */
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { openapiDocument } from '../../src/openapi-document.js';
import {
  REQUEST_EXAMPLES,
  RESPONSE_EXAMPLES,
  TEXT_RESPONSE_EXAMPLES,
} from '../../src/routes/admin/examples.js';

const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

type Media = { schema?: Record<string, unknown>; example?: unknown; examples?: unknown };
type Parameter = { name: string; in: string; schema: Record<string, unknown>; example?: unknown };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
};

/**
 * Closes every object schema that does not say what else it allows, as the HTTP suites'
 * conformance check does (test/helpers/conformance.ts): an example with a field the answer
 * never has is as wrong as one missing a field.
 */
function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'examples' ? v : closeObjects(v);
  if (out.properties && typeof out.properties === 'object' && !('additionalProperties' in out)) {
    out.additionalProperties = false;
  }
  return out;
}

/** The examples a media object shows: its own, else its schema's. */
function examplesOf(m: Media): unknown[] {
  if (m.example !== undefined) return [m.example];
  if (m.examples !== undefined) {
    return Object.values(m.examples as Record<string, { value: unknown }>).map((e) => e.value);
  }
  return (m.schema?.examples as unknown[] | undefined) ?? [];
}

let operations: [string, Operation][] = [];
let doc: Record<string, unknown> = {};

beforeAll(async () => {
  doc = JSON.parse(await openapiDocument('admin'));
  const paths = doc.paths as Record<string, Record<string, Operation>>;
  operations = Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as const),
  ) as [string, Operation][];
}, 60_000);

describe('the admin OpenAPI document', () => {
  it('has the operations it had (a sanity floor for the checks below)', () => {
    expect(operations.length).toBeGreaterThanOrEqual(68);
  });

  it('gives every operation a success answer with a schema (or 204)', () => {
    const missing = operations
      .filter(([, op]) => {
        const ok = Object.entries(op.responses).filter(([status]) => status.startsWith('2'));
        return !ok.some(
          ([status, r]) =>
            status === '204' || Object.values(r.content ?? {}).some((m) => m.schema !== undefined),
        );
      })
      .map(([name]) => name);
    expect(missing).toEqual([]);
  });

  it('gives every request body an example, and the example fits the body schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const problems: string[] = [];
    for (const [name, op] of operations) {
      for (const [media, m] of Object.entries(op.requestBody?.content ?? {})) {
        if (m.example === undefined && m.examples === undefined) {
          problems.push(`${name} (${media}): no example`);
          continue;
        }
        if (media !== 'application/json' || m.example === undefined || !m.schema) continue;
        const validate = ajv.compile(closeObjects(m.schema) as object);
        if (!validate(m.example)) {
          problems.push(`${name}: example does not fit: ${ajv.errorsText(validate.errors)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('gives every success answer an example, and the example fits the answer schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const problems: string[] = [];
    for (const [name, op] of operations) {
      for (const [status, r] of Object.entries(op.responses)) {
        if (!status.startsWith('2') || !r.content) continue;
        // A 204's content names no schema: there is no body to show.
        const media = Object.entries(r.content).filter(([, m]) => m.schema !== undefined);
        // JSON when the answer may be JSON; otherwise (metrics, a CSV-only export) its own type.
        const required = media.filter(([type]) => type === 'application/json');
        for (const [type, m] of required.length > 0 ? required : media) {
          if (examplesOf(m).length === 0) problems.push(`${name} ${status} (${type}): no example`);
        }
        for (const [type, m] of media) {
          const validate = ajv.compile(closeObjects(m.schema) as object);
          for (const example of examplesOf(m)) {
            if (!validate(example)) {
              problems.push(
                `${name} ${status} (${type}): example does not fit: ${ajv.errorsText(validate.errors)}`,
              );
            }
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('gives every path parameter an example its schema accepts', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const problems: string[] = [];
    for (const [name, op] of operations) {
      for (const p of op.parameters ?? []) {
        if (p.example === undefined) {
          if (p.in === 'path') problems.push(`${name}: path parameter ${p.name} has no example`);
          continue;
        }
        if (!ajv.validate(p.schema, p.example)) {
          problems.push(`${name}: ${p.in} parameter ${p.name}: ${ajv.errorsText(ajv.errors)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('has no example for a route that is gone (src/routes/admin/examples.ts)', () => {
    const names = new Set(operations.map(([name]) => name));
    const keys = [REQUEST_EXAMPLES, RESPONSE_EXAMPLES, TEXT_RESPONSE_EXAMPLES].flatMap(Object.keys);
    const stale = keys
      .map((key) => key.replace(/:([a-z0-9_]+)/g, '{$1}'))
      .filter((name) => !names.has(name));
    expect(stale).toEqual([]);
  });

  it('answers every list as {items, next_cursor}, never a bare array', () => {
    const problems: string[] = [];
    for (const [name, op] of operations) {
      for (const [status, r] of Object.entries(op.responses)) {
        if (!status.startsWith('2')) continue;
        const schema = r.content?.['application/json']?.schema;
        if (!schema) continue;
        if (schema.type === 'array') problems.push(`${name}: a bare array`);
        const props = schema.properties as Record<string, unknown> | undefined;
        if (props && 'items' in props) {
          expect(Object.keys(props).sort(), name).toEqual(['items', 'next_cursor']);
          expect([...((schema.required as string[]) ?? [])].sort(), name).toEqual([
            'items',
            'next_cursor',
          ]);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
