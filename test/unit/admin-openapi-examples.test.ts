/**
 * The admin document (GET /admin/openapi.json) as a client generator reads it: every
 * operation answers a schema, every body has an example its schema accepts, every list is
 * `{items, next_cursor}`. A new admin route that misses one fails here by name.
 */
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { openapiDocument } from '../../src/openapi-document.js';
import { REQUEST_EXAMPLES } from '../../src/routes/admin/examples.js';

const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

type Media = { schema?: Record<string, unknown>; example?: unknown; examples?: unknown };
type Operation = {
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
};

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
        const validate = ajv.compile(m.schema);
        if (!validate(m.example)) {
          problems.push(`${name}: example does not fit: ${ajv.errorsText(validate.errors)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('has no example for a route that is gone (src/routes/admin/examples.ts)', () => {
    const names = new Set(operations.map(([name]) => name));
    const stale = Object.keys(REQUEST_EXAMPLES)
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
