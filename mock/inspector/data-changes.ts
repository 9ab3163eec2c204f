import type { InspectorSnapshot } from './inspector-snapshot.js';

type DataSection = InspectorSnapshot['data'];
type Collection = keyof DataSection;

/** What changed in one list of the data section since the last update: rows added or changed, ids removed. */
export interface CollectionChanges {
  set: DataSection[Collection][number][];
  removed: number[];
}

/** The feed's `data-changes` event: only the lists that changed, each with only the rows that did. */
export type DataChanges = Partial<Record<Collection, CollectionChanges>>;

/**
 * The data section as last sent, one JSON string per row, so an update sends the rows that changed rather than the
 * whole store: its size follows the change, not the store (1,500 domains cost a row, not 150 KB, per reader).
 */
export class DataRows {
  readonly #rows = new Map<Collection, Map<number, string>>();

  /** Takes the data section in; returns what changed since the last call, or undefined when nothing did. */
  update(data: DataSection): DataChanges | undefined {
    let changes: DataChanges | undefined;
    for (const name of Object.keys(data) as Collection[]) {
      const before = this.#rows.get(name) ?? new Map<number, string>();
      const after = new Map<number, string>();
      const set: CollectionChanges['set'] = [];
      for (const row of data[name]) {
        const json = JSON.stringify(row);
        after.set(row.id, json);
        if (before.get(row.id) !== json) set.push(row);
      }
      const removed = [...before.keys()].filter((id) => !after.has(id));
      this.#rows.set(name, after);
      if (set.length > 0 || removed.length > 0) changes = { ...changes, [name]: { set, removed } };
    }
    return changes;
  }
}
