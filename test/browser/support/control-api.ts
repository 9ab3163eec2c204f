// The mock's control API as a test drives it next to a page: posts with the control token, and the manual clock moved
// to the next due attempt the way the page's button does.

/** Control API calls against the server at `url`. */
export interface ControlApi {
  /** Sends `body` as JSON with the control token; resolves with the answer's JSON, throwing on a non-2xx answer. */
  send(method: string, path: string, body?: unknown): Promise<unknown>;
  /** Moves the manual clock to the soonest scheduled attempt; false when nothing is scheduled. */
  advanceToNextDue(): Promise<boolean>;
}

/** The control API of the server at `url` with `token`. */
export function controlApi(url: string, token: string): ControlApi {
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  return {
    send,
    async advanceToNextDue() {
      const { now } = (await send('POST', '/__mock/clock/advance', { ms: 0 })) as { now: number };
      const { scheduled } = (await send('GET', '/__mock/scheduled')) as { scheduled: { at: number }[] };
      if (scheduled.length === 0) return false;
      await send('POST', '/__mock/clock/advance', { ms: Math.max(0, scheduled[0]!.at - now) });
      return true;
    },
  };
}
