// An app that sends messages through the gateway's API with `MessagingClient`.
import { MessagingClient } from '../../src/index.js';

const gateway = new MessagingClient({
  apiKey: 'gw_live_example',
  baseUrl: 'https://gateway.example.com',
  dangerouslyAllowBrowser: true,
});

/** Sends one message. */
export const main = () => gateway.messages.send({ device_id: 'auto', phone: '15551234567', message: 'hi' });
