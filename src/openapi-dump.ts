/**
 * Prints the public API's OpenAPI document (`npm run -s openapi:dump`), or
 * writes it to the path given as the first argument (`npm run lint:openapi`).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { openapiDocument } from './openapi-document.js';

const out = process.argv[2];
const doc = await openapiDocument();
if (out) {
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, doc);
} else process.stdout.write(doc);
