/**
 * One network, one source (docs/reporting.md#sources): a source is compared
 * with its case and spacing folded (lowercase, runs of spaces, tabs and line
 * breaks made one space, none at the ends), and the names a network goes by
 * are folded into the name its click id gives (contract §8: fbclid is `meta`,
 * msclkid `microsoft`). report_source_alias (src/store/sql) is the same table.
 */
export const SOURCE_ALIASES: Readonly<Record<string, string>> = {
  facebook: 'meta',
  fb: 'meta',
  meta: 'meta',
  bing: 'microsoft',
  microsoft: 'microsoft',
};

/** Spacing folded, case kept: what report_source does before lower(). */
export const foldSpacing = (text: string) => text.replace(/[ \t\r\n]+/g, ' ').replace(/^ | $/g, '');

/** A source as reports name it: spacing and case folded, then its network's name for an alias. */
export function foldSource(source: string): string {
  const key = foldSpacing(source).toLowerCase();
  return SOURCE_ALIASES[key] ?? key;
}
