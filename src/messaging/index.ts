// The messaging API client, exported from `linkgate`.
export { classifyMessagingAnswer } from './classify.js';
export { MessagesResource } from './MessagesResource.js';
export { MessagingClient, type MessagingClientOptions } from './MessagingClient.js';
