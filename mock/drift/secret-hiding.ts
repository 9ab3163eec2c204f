// Keys and webhook secrets seen on the wire, hidden in what the drift commands print and write: in whole values and
// in the words of a text, looked up in a Set, so the cost of hiding grows with the text, never with how many keys
// were seen; a secret never matches inside a longer word (`test` leaves `tester` alone). Credentials in URLs
// (a password in the userinfo, a token in the query) are hidden without being known.

/** What a secret is replaced with in findings, reports, logs and recordings. */
export const HIDDEN = '[hidden]';

/** Secrets shorter than this are not looked for in text: too likely to be an ordinary word. */
const SHORTEST_SECRET = 4;
/** Most words a secret may span (`ab/cd+ef==` is two) and still be found inside a text; longer ones only as whole values. */
const MOST_WORDS = 8;

/** Characters between words: a secret is found only where it starts and ends at word edges. */
const SEPARATOR = /[\s"'`()<>[\]{},;&?=:@|\\/]/;
/** A run of word characters. */
const WORD = /[^\s"'`()<>[\]{},;&?=:@|\\/]+/g;

/** `scheme://user:password@`: the password part. */
const URL_PASSWORD = /(:\/\/[^\s/?#@:"']*):([^\s/?#@"']*)@/g;
/** `?name=value` or `&name=value`. */
const QUERY_PAIR = /([?&;])([^=&#\s?;"']+)=([^&#\s;"']*)/g;
/** Query parameter names whose values are secrets. */
const SECRET_PARAMETER = /(key|password|passwd|pass|pwd|secret|token|auth|authorization|signature|sig|credentials?)$/i;

/** Hides the password of every `scheme://user:password@host` and the value of every secret-named query parameter. */
export function hideUrlCredentials(text: string): string {
  if (!text.includes('://') && !text.includes('=')) return text;
  return text
    .replace(URL_PASSWORD, (_, head: string) => `${head}:${HIDDEN}@`)
    .replace(QUERY_PAIR, (pair, mark: string, name: string, value: string) =>
      value !== '' && SECRET_PARAMETER.test(name) ? `${mark}${name}=${HIDDEN}` : pair,
    );
}

/** A word without the dots at its end (a loop: a regex anchored at the end would rescan long runs of dots). */
function withoutFullStops(word: string): string {
  let end = word.length;
  while (end > 0 && word[end - 1] === '.') end--;
  return word.slice(0, end);
}

/** The secrets seen so far, and the hiding of them in texts and in JSON values. */
export class SecretSet {
  readonly #whole = new Set<string>();
  /** Secrets by their core (the secret without separators at its ends), the part looked up among a text's words. */
  readonly #byCore = new Map<string, { secret: string; lead: number }[]>();
  #mostWords = 1;

  /** Adds a secret; one shorter than 4 characters is hidden only where it is a whole value. */
  add(secret: string | undefined): void {
    if (secret === undefined || secret === '') return;
    this.#add(secret);
    // Shown inside a JSON string (a finding's value), a key of quotes or backslashes is written escaped.
    this.#add(JSON.stringify(secret).slice(1, -1));
  }

  #add(secret: string): void {
    if (this.#whole.has(secret)) return;
    this.#whole.add(secret);
    if (secret.length < SHORTEST_SECRET) return;
    const words = secret.match(WORD);
    if (!words || words.length > MOST_WORDS) return;
    let lead = 0;
    while (SEPARATOR.test(secret[lead] as string)) lead++;
    let end = secret.length;
    while (SEPARATOR.test(secret[end - 1] as string)) end--;
    const core = secret.slice(lead, end);
    const list = this.#byCore.get(core);
    if (list) list.push({ secret, lead });
    else this.#byCore.set(core, [{ secret, lead }]);
    this.#mostWords = Math.max(this.#mostWords, words.length);
  }

  /** How many secrets are known. */
  get size(): number {
    return this.#whole.size;
  }

  /** The text with URL credentials and every known secret, where it stands as a whole word or words, hidden. */
  hideText(text: string): string {
    if (this.#whole.has(text)) return HIDDEN;
    const unlinked = hideUrlCredentials(text);
    if (this.#byCore.size === 0) return unlinked;
    const starts: number[] = [];
    const ends: number[] = [];
    for (const word of unlinked.matchAll(WORD)) {
      starts.push(word.index);
      ends.push(word.index + word[0].length);
    }
    // Each word, and each run of up to #mostWords words, is one Set lookup: the number of secrets does not count.
    const hits: [number, number][] = [];
    for (let first = 0; first < starts.length; first++) {
      const last = Math.min(starts.length, first + this.#mostWords);
      for (let next = first; next < last; next++) {
        const words = unlinked.slice(starts[first], ends[next]);
        // A sentence's full stop is not part of the key before it.
        const found = this.#byCore.get(words) ?? this.#byCore.get(withoutFullStops(words));
        if (!found) continue;
        for (const { secret, lead } of found) {
          const at = (starts[first] as number) - lead;
          if (at >= 0 && unlinked.startsWith(secret, at)) hits.push([at, at + secret.length]);
        }
      }
    }
    if (hits.length === 0) return unlinked;
    hits.sort((a, b) => a[0] - b[0]);
    let out = '';
    let done = 0;
    for (const [from, to] of hits) {
      if (to <= done) continue;
      out += `${unlinked.slice(done, Math.max(from, done))}${from >= done ? HIDDEN : ''}`;
      done = to;
    }
    return out + unlinked.slice(done);
  }

  /**
   * A copy of a JSON value with every string hidden as {@link hideText} does (keys of objects too): hiding before
   * serialising keeps what is written valid JSON and leaves every other value as it was.
   */
  hideValues<T>(value: T): T {
    return this.#walk(value) as T;
  }

  #walk(value: unknown): unknown {
    if (typeof value === 'string') return this.hideText(value);
    if (Array.isArray(value)) return value.map((item) => this.#walk(item));
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // defineProperty: a key named __proto__ stays an own key, as JSON.parse made it.
      Object.defineProperty(out, this.hideText(key), {
        value: this.#walk(item),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
}
