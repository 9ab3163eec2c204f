/** Node's `IncomingHttpHeaders` shape, stated structurally so this entry needs no `node:*` types at run time. */
export type NodeHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Headers as a web `Headers`, or a Node headers object (lower-case keys, values string or string[]). */
export type HeaderSource = Headers | NodeHeaders;

/** Reads one header (name given in lower case) from either header shape; several values are joined like fetch does. */
export function readHeader(headers: HeaderSource, lowerName: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(lowerName) ?? undefined;
  const record = headers as NodeHeaders;
  let value = record[lowerName];
  if (value === undefined) {
    // Hand-built objects (tests, other frameworks) may keep the sender's casing; scan only on a miss.
    for (const key in record) {
      if (key.length === lowerName.length && key.toLowerCase() === lowerName) {
        value = record[key];
        break;
      }
    }
  }
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : Array.isArray(value) ? value.join(', ') : String(value);
}
