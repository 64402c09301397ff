import type { ConsoleRouter } from '../router.js';

export function operatorPages(_router: ConsoleRouter): void {}
