// Reads the inspector's feed (GET /__mock/events) over fetch, as the page does, and waits for events in tests.

/** One server-sent event: its name and its data parsed as JSON. */
export interface FeedEvent {
  name: string;
  // biome-ignore lint/suspicious/noExplicitAny: the feed's JSON, read field by field by each test
  data: any;
}

/** An open feed: the events so far, a way to wait for one, and to hang up. */
export interface FeedReader {
  events: FeedEvent[];
  /** Resolves with the first event (from `from` on) named `name` that `match` accepts; rejects after `timeoutMs`. */
  next(
    name: string,
    match?: (data: FeedEvent['data']) => boolean,
    timeoutMs?: number,
    from?: number,
  ): Promise<FeedEvent>;
  close(): void;
}

/** Opens the feed of the server at `url` with `token`; resolves once the answer's headers are in. */
export async function openFeed(url: string, token: string): Promise<FeedReader & { status: number }> {
  const abort = new AbortController();
  const res = await fetch(`${url}/__mock/events`, {
    headers: { authorization: `Bearer ${token}` },
    signal: abort.signal,
  });
  const events: FeedEvent[] = [];
  const waiters = new Set<() => void>();
  if (res.ok && res.body) {
    void (async () => {
      let buffer = '';
      const decoder = new TextDecoder();
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const name = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (name && data) events.push({ name, data: JSON.parse(data) });
          }
          for (const wake of waiters) wake();
        }
      } catch {
        // Closed by the test.
      }
    })();
  }
  return {
    status: res.status,
    events,
    next(name, match = () => true, timeoutMs = 10_000, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.slice(from).find((e) => e.name === name && match(e.data));
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no "${name}" event within ${timeoutMs} ms; got ${events.map((e) => e.name).join(', ')}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => abort.abort(),
  };
}
