/** Reading an OpenAPI document whose bodies are `$ref`s to components.schemas. */
export type Doc = any;

/** The schema itself, following `$ref`s to `#/components/schemas/…`. */
export function deref(doc: Doc, schema: any): any {
  let s = schema;
  while (s && typeof s.$ref === 'string') {
    const name = s.$ref.replace('#/components/schemas/', '');
    s = doc.components?.schemas?.[name];
    if (!s) throw new Error(`unresolved $ref ${name}`);
  }
  return s;
}

/** The values a `detail` property allows: a const, an enum, or a union of those. */
export function allowedValues(doc: Doc, schema: any): unknown[] {
  const s = deref(doc, schema);
  if (Array.isArray(s.anyOf)) return s.anyOf.flatMap((m: any) => allowedValues(doc, m));
  if (Array.isArray(s.enum)) return s.enum;
  return 'const' in s ? [s.const] : [];
}

/** The JSON body schema of one response of one operation, dereferenced. */
export function responseSchema(doc: Doc, path: string, status: string, method = 'post'): any {
  return deref(doc, doc.paths[path][method].responses[status].content['application/json'].schema);
}
