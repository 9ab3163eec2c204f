import { APIClient, type ClientOptions, type ClientProfile } from '../core/api-client.js';
import { LinkgateError } from '../core/errors.js';
import { MESSAGING_KEY_PATTERN, MESSAGING_KEY_PREFIX } from '../schemas/messaging.js';
import { classifyMessagingAnswer } from './classify.js';
import { MessagesResource } from './messages-resource.js';

/** Options of {@link MessagingClient}: the same as the management client's; the rate limiter is off by default. */
export type MessagingClientOptions = ClientOptions;

const MESSAGING: ClientProfile = {
  name: 'MessagingClient',
  apiKeyEnv: 'LINKGATE_MESSAGING_KEY',
  baseUrlEnv: 'LINKGATE_MESSAGING_BASE_URL',
  classify: classifyMessagingAnswer,
  // The spec gives no rate limit for the messaging API.
  rateLimit: false,
  checkKey(apiKey) {
    if (MESSAGING_KEY_PATTERN.test(apiKey)) return;
    // Never echo the key: only its length and whether the prefix is there.
    const hint = apiKey.startsWith(MESSAGING_KEY_PREFIX)
      ? `it starts with "${MESSAGING_KEY_PREFIX}" but the rest is not 24 or more letters or digits`
      : `it does not start with "${MESSAGING_KEY_PREFIX}" (a management API key does not work here)`;
    throw new LinkgateError(
      `MessagingClient: the apiKey does not look like a messaging key: ${hint} (${apiKey.length} characters given). Copy the key from Settings > API Keys.`,
    );
  },
};

/**
 * Client of the messaging API (`/api/v1/...`): same options, retries, errors, logging and browser guard as
 * {@link Linkgate}. The key must have the documented shape (`gw_live_` + letters/digits); a 401 answer becomes
 * an `AuthenticationError`.
 *
 * @example
 * const messaging = new MessagingClient({ apiKey: process.env.LINKGATE_MESSAGING_KEY, baseUrl: 'https://gw.example.com' });
 * await messaging.messages.send({ device_id: 'auto', phone: '15551234567', message: 'Your code is 1234' });
 */
export class MessagingClient extends APIClient {
  /** Outbound messages. */
  declare readonly messages: MessagesResource;

  /** @param options - `apiKey` and `baseUrl` default to LINKGATE_MESSAGING_KEY / LINKGATE_MESSAGING_BASE_URL. */
  constructor(options: MessagingClientOptions = {}) {
    // The browser guard speaks first, then the key's shape (checkKey), before any other option.
    super(options, MESSAGING);
    this.messages = new MessagesResource(this);
  }
}
