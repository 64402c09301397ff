import { Batcher, type BatcherOptions } from '../batcher.js';
import { acceptInboundCalls, type InboundAnswer, type RingingRequest } from './inbound.js';
import type { InboundCallRepos } from './ports.js';

// Bounds on what is remembered: a sweep past these forgets what is idle (batchers) or all of it
// (the numbers' organizations, learned again from the next answers).
const MAX_BATCHERS = 1_000;
const MAX_NUMBERS = 100_000;

/**
 * Voice webhooks in batches (docs/routing.md, "What a call costs"): calls that arrive while a
 * batch of their organization is in flight go together in the next, one transaction for all.
 * One batcher per organization, so no call waits in a batch for another organization's: the
 * batch waits for its buyers' usage rows, and a buyer is one organization's. A number's
 * organization is learned from its first answer and is only a grouping hint (the transaction
 * reads the number's owner itself): a number moved to another organization puts a call in the
 * wrong group once, and routes it right. Until then the number is its own group.
 */
export class RingBatchers {
  private readonly batchers = new Map<string, Batcher<RingingRequest, InboundAnswer>>();
  private readonly orgOfNumber = new Map<string, string>();

  constructor(
    private readonly repos: InboundCallRepos,
    private readonly options: BatcherOptions & { retryAlone(err: unknown): boolean },
  ) {}

  /** The call's answer once the batch it went in has committed. */
  ring(request: RingingRequest): Promise<InboundAnswer> {
    const group = this.orgOfNumber.get(request.call.to) ?? `number ${request.call.to}`;
    const key = `${request.ctx.carrier} ${group}`;
    let batcher = this.batchers.get(key);
    if (!batcher) {
      if (this.batchers.size >= MAX_BATCHERS) {
        for (const [k, b] of this.batchers) if (b.idle) this.batchers.delete(k);
      }
      batcher = new Batcher(
        { send: (batch) => this.send(batch), retryAlone: this.options.retryAlone },
        this.options,
      );
      this.batchers.set(key, batcher);
    }
    return batcher.add(request);
  }

  private async send(batch: readonly RingingRequest[]): Promise<InboundAnswer[]> {
    const answers = await acceptInboundCalls(this.repos, batch);
    if (this.orgOfNumber.size >= MAX_NUMBERS) this.orgOfNumber.clear();
    answers.forEach((a, i) => {
      if ('orgId' in a) this.orgOfNumber.set(batch[i]!.call.to, a.orgId);
    });
    return answers;
  }
}
