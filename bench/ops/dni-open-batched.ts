import { sessionBatcher } from '../../src/wiring.js';
import { dniOpen } from './dni-open.js';

/** The same through the route's batcher: what arrives while a batch is in flight goes in the next. */
export const operation = dniOpen((store) => sessionBatcher(store));
