import type { ManagementHost } from './route-context.js';

/**
 * The `id` a create answer of a domain or pixel carries: the number, or a numeric string (`"12"`) with the
 * `stringIds` variant, as some production versions send it.
 */
export function createdId(core: ManagementHost, id: number): number | string {
  return core.options.variants.stringIds ? String(id) : id;
}
