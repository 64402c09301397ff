import type { ConsoleRouter } from '../router.js';

export function campaignPages(_router: ConsoleRouter): void {}
