import type { Config } from '../config.js';
import type { Clock } from '../deps.js';
import { SimulatedCarrier } from '../domain/dispatch/carriers/simulated.js';
import type { Carrier } from '../domain/dispatch/carriers/types.js';
import type { SimulatedMessageRepos } from '../domain/dispatch/ports.js';
import { TwilioCarrier } from './twilio-carrier.js';

export { SimulatedCarrier } from '../domain/dispatch/carriers/simulated.js';
export type * from '../domain/dispatch/carriers/types.js';
export { TwilioCarrier, twilioRequest } from './twilio-carrier.js';

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
