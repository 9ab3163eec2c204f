/**
 * Appends every item to the target in place. A loop, not `push(...items)`: a spread passes each item as an argument,
 * and an answer's list of some 125,000 rows overflows the stack that way.
 */
export function appendAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}
