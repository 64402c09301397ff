import twilio from 'twilio';

export const NOT_IN_SERVICE = 'Sorry, the number you have dialed is not in service. Goodbye.';
export const NO_ONE_AVAILABLE =
  'Thank you for calling. No one is available to take your call right now. Please try again later. Goodbye.';
export const OPTED_OUT = 'You will not receive any more calls or messages from us. Goodbye.';

/** Connects the caller to the campaign's destination; the caller's own number is shown. */
export function forwardTwiml(forwardTo: string): string {
  const response = new twilio.twiml.VoiceResponse();
  response.dial({ answerOnBridge: true }, forwardTo);
  return response.toString();
}

/**
 * Rings a buyer for `timeoutSeconds`; when the buyer's leg ends (answered and hung up, busy, no
 * answer, failed), Twilio posts the Dial's result to `action` and plays what that answers.
 */
export function dialBuyerTwiml(forwardTo: string, action: string, timeoutSeconds: number): string {
  const response = new twilio.twiml.VoiceResponse();
  response.dial(
    { action, method: 'POST', timeout: timeoutSeconds, answerOnBridge: true },
    forwardTo,
  );
  return response.toString();
}

/** Ends the call: routing has nothing more to do for it. */
export function hangupTwiml(): string {
  const response = new twilio.twiml.VoiceResponse();
  response.hangup();
  return response.toString();
}

/** A polite goodbye when there is nowhere to send the call. */
export function goodbyeTwiml(message: string): string {
  const response = new twilio.twiml.VoiceResponse();
  response.say({ language: 'en-US' }, message);
  response.hangup();
  return response.toString();
}

/** The answer to an inbound text: nothing to send back from the webhook itself. */
export function emptyMessagingTwiml(): string {
  return new twilio.twiml.MessagingResponse().toString();
}
