// The messaging API client, exported from `linkgate`.
export { classifyMessagingAnswer } from './classify.js';
export { MessagesResource } from './messages-resource.js';
export { MessagingClient, type MessagingClientOptions } from './messaging-client.js';
