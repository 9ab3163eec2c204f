/**
 * `path` without the slashes at its end. A loop rather than `/\/+$/`, which backtracks quadratically on a long run of
 * slashes that is not at the end.
 */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end--;
  return path.slice(0, end);
}
