/**
 * Generates src/generated/openapi.ts, the client's types, from the service's
 * OpenAPI document as GET /openapi.json serves it (run by `npm run build`, so
 * by `npm install` at the repository root). The file is not committed: the
 * client is always built against the document of the service it ships with,
 * and test/http/kit-client.test.ts fails when it differs from what the
 * running service serves.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { openapiDocument } from '../../../src/openapi-document.js';
import { clientTypes } from './client-types.js';

const dir = new URL('../src/generated/', import.meta.url);
await mkdir(dir, { recursive: true });
await writeFile(new URL('openapi.ts', dir), await clientTypes(JSON.parse(await openapiDocument())));
