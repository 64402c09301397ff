import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';

/**
 * The TypeScript types openapi-typescript generates for an OpenAPI document.
 * `defaultNonNullable: false`, else a request field with a default (dry_run)
 * becomes required (openapi-ts/openapi-typescript#2012).
 */
export async function clientTypes(doc: object): Promise<string> {
  const ast = await openapiTS(doc as Parameters<typeof openapiTS>[0], {
    silent: true,
    defaultNonNullable: false,
  });
  return COMMENT_HEADER + astToString(ast);
}
