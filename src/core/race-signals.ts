// Ends a wait when a signal aborts, whether or not the work it waits for listens to that signal: a hook that never
// settles, a custom fetch that drops the signal it was given (`(request) => fetch(request)`), a body that stalls.

import { safely } from './fetch-failure.js';

/**
 * What `work` settles with, unless one of `signals` aborts first: then it rejects with `ended()`, and a value `work`
 * settles with later is handed to `late` (to discard an answer nobody reads any more). Listened to one by one, not
 * through AbortSignal.any: a combined signal only the stuck work refers to may be collected before it fires.
 */
export function raceSignals<T>(
  work: T,
  signals: (AbortSignal | undefined)[],
  ended: () => unknown,
  late?: (value: Awaited<T>) => void,
): Promise<Awaited<T>> {
  return new Promise((resolve, reject) => {
    let over = false;
    // Whichever ends first stops listening: a long-lived signal of the user's keeps nothing of the stuck work.
    const done = () => {
      for (const signal of signals) signal?.removeEventListener('abort', end);
    };
    const end = () => {
      done();
      over = true;
      reject(ended());
    };
    for (const signal of signals) signal?.addEventListener('abort', end);
    // Always attached, so work that rejects after the end is still handled.
    Promise.resolve(work)
      // What `late` throws on an odd value a custom fetch resolved with is dropped: nobody waits for it any more.
      .then((value) => (over ? safely(() => late?.(value)) : resolve(value)), reject)
      .finally(done);
    // Ended already (a beforeError hook of an aborted call): queued after the line above, so what the work did
    // synchronously (a value a hook returned at once) still counts.
    if (signals.some((signal) => signal?.aborted)) queueMicrotask(end);
  });
}
