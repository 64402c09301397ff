/**
 * Prints the public API's OpenAPI document (`npm run -s openapi:dump`), or
 * writes it to the path given as the first argument and, with a second path,
 * the admin API's document there (`npm run lint:openapi` lints both).
 * `--admin` alone prints the admin document.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { openapiDocument } from './openapi-document.js';

const args = process.argv.slice(2);
if (args[0] === '--admin') process.stdout.write(await openapiDocument('admin'));
else if (args.length === 0) process.stdout.write(await openapiDocument('public'));
else {
  for (const [i, out] of args.entries()) {
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, await openapiDocument(i === 0 ? 'public' : 'admin'));
  }
}
