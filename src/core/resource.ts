import type { APIClient } from './api-client.js';

/** Base of the resource classes (`client.domains`, ...): each method describes one call and hands it to the client. */
export abstract class APIResource {
  /** The client that sends this resource's calls (non-enumerable, so printing a client stays short). */
  declare protected readonly _client: APIClient;

  constructor(client: APIClient) {
    Object.defineProperty(this, '_client', { value: client });
  }
}
