/** A listener's handle; call it to stop listening. */
export type Unsubscribe = () => void;

/**
 * A small typed event emitter (no `node:events`, so the mock core stays runtime-neutral). A listener that throws
 * does not stop delivery to the others or break the engine.
 */
export class LifecycleEmitter<Events extends Record<string, unknown>> {
  readonly #listeners = new Map<keyof Events, Set<(payload: never) => void>>();

  /** Calls `listener` with each `event`'s payload; returns a function that removes it. */
  on<K extends keyof Events>(event: K, listener: (payload: Events[K]) => void): Unsubscribe {
    let set = this.#listeners.get(event);
    if (!set) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }

  /** Sends `payload` to every listener of `event`. */
  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    const set = this.#listeners.get(event);
    if (!set) return;
    for (const listener of set) {
      try {
        (listener as (p: Events[K]) => void)(payload);
      } catch {
        // A faulty test listener must not stop deliveries.
      }
    }
  }
}
