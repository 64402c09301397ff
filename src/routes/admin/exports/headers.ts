/**
 * The counts of a conversion export travel as headers so the body stays the
 * file itself. A module of its own so the CLI reads them without loading the
 * server.
 */
export const EXPORT_HEADERS = {
  candidates: 'x-export-candidates',
  exported: 'x-export-rows',
  skippedNoClickId: 'x-export-skipped-no-click-id',
  skippedTooOld: 'x-export-skipped-too-old',
} as const;
