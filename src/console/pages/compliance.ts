import type { ConsoleRouter } from '../router.js';

export function compliancePages(_router: ConsoleRouter): void {}
