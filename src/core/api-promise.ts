/** A parsed result with the HTTP response it came from. */
export interface WithResponse<T> {
  /** The parsed, validated result. */
  data: T;
  /** The raw response (its body has been read). */
  response: Response;
}

/**
 * What every API method returns: await it for the data, or call {@link withResponse} for the data and the raw
 * `Response` (headers, status). The request is sent when the method is called, like any promise.
 *
 * @example
 * const account = await client.account.get();
 * const { data, response } = await client.account.get().withResponse();
 */
export class APIPromise<T> implements PromiseLike<T> {
  readonly #result: Promise<WithResponse<T>>;
  #data: Promise<T> | undefined;

  constructor(result: Promise<WithResponse<T>>) {
    this.#result = result;
  }

  /** The data together with the raw `Response`. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#result;
  }

  // biome-ignore lint/suspicious/noThenProperty: an APIPromise is deliberately thenable, so it can be awaited.
  then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#promise().then(onfulfilled, onrejected);
  }

  /** Like `Promise.prototype.catch`. */
  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.#promise().catch(onrejected);
  }

  /** Like `Promise.prototype.finally`. */
  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#promise().finally(onfinally);
  }

  /** `'APIPromise'`, so `Object.prototype.toString` and loggers name it instead of printing `[object Object]`. */
  get [Symbol.toStringTag](): string {
    return 'APIPromise';
  }

  #promise(): Promise<T> {
    this.#data ??= this.#result.then((r) => r.data);
    return this.#data;
  }
}
