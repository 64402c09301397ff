import type { ConsoleRouter } from '../router.js';

export function webhookPages(_router: ConsoleRouter): void {}
