import type { Config } from '../../../config.js';
import type { Clock } from '../../../deps.js';
import type { SimulatedMessageRepos } from '../ports.js';
import { SimulatedCarrier } from './simulated.js';
import { TwilioCarrier } from './twilio.js';
import type { Carrier } from './types.js';

export { SimulatedCarrier } from './simulated.js';
export { TwilioCarrier, twilioRequest } from './twilio.js';
export type * from './types.js';

export function createCarrier(
  config: Pick<Config, 'carrier' | 'twilio' | 'simulatedLatencyMs' | 'publicBaseUrl'>,
  repos: SimulatedMessageRepos,
  clock: Clock,
): Carrier {
  if (config.carrier === 'twilio' && config.twilio) {
    return new TwilioCarrier({
      accountSid: config.twilio.accountSid,
      authToken: config.twilio.authToken,
      baseUrl: config.twilio.apiBaseUrl,
      publicBaseUrl: config.publicBaseUrl,
    });
  }
  return new SimulatedCarrier(repos, clock, config.simulatedLatencyMs);
}
