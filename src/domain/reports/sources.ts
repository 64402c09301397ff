/**
 * One network, one source (docs/reporting.md#sources): a source is compared
 * with its case and spacing folded (lowercase, runs of spaces, tabs and line
 * breaks made one space, none at the ends), and the names a network goes by
 * are folded into the name its click id gives (contract §8: fbclid is `meta`,
 * msclkid `microsoft`). report_source_alias (src/store/sql) is the same table.
 */
export const SOURCE_ALIASES: Readonly<Record<string, string>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, string>, {
    facebook: 'meta',
    fb: 'meta',
    meta: 'meta',
    bing: 'microsoft',
    microsoft: 'microsoft',
  }),
);

/**
 * The network's name for an alias, else undefined. Only the table's own keys: a visitor's
 * utm_source of `__proto__` or `constructor` is a source like any other, not an object's
 * prototype or method (a property test found `__proto__` reported as "{}").
 */
export const aliasOf = (key: string): string | undefined =>
  Object.hasOwn(SOURCE_ALIASES, key) ? SOURCE_ALIASES[key] : undefined;

/** Spacing folded, case kept: what report_source does before lower(). */
export const foldSpacing = (text: string) => text.replace(/[ \t\r\n]+/g, ' ').replace(/^ | $/g, '');

/** A source as reports name it: spacing and case folded, then its network's name for an alias. */
export function foldSource(source: string): string {
  const key = foldSpacing(source).toLowerCase();
  return aliasOf(key) ?? key;
}
