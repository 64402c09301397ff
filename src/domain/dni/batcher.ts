import { Batcher, type BatcherOptions } from '../batcher.js';
import type { SessionOpenRequest, SessionOpenResult, SessionStore } from './ports.js';

/**
 * DNI opens in batches (src/domain/batcher.ts), per process and per store: a batch is one
 * statement (src/store/repos/dni.ts).
 */
export class SessionBatcher extends Batcher<SessionOpenRequest, SessionOpenResult> {
  constructor(store: SessionStore, options: BatcherOptions) {
    super({ send: (r) => store.openSessions(r), retryAlone: (e) => store.retryAlone(e) }, options);
  }

  open(request: SessionOpenRequest): Promise<SessionOpenResult> {
    return this.add(request);
  }
}
