/**
 * Rewrites public-api.d.ts, the client types generated from GET /openapi.json
 * (`npm run openapi:types`). test/http/openapi-client.test.ts fails while the
 * committed file differs from what the current document generates.
 */
import { writeFile } from 'node:fs/promises';
import { clientTypes } from '../../packages/client/scripts/client-types.js';
import { openapiDocument } from '../../src/openapi-document.js';

const target = new URL('./public-api.d.ts', import.meta.url);
await writeFile(target, await clientTypes(JSON.parse(await openapiDocument())));
