import type { ConsoleRouter } from '../router.js';

export function overviewPage(_router: ConsoleRouter): void {}
