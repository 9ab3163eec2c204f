/**
 * Production variants: behaviours of some production versions (docs/service.md) that the mock can switch on,
 * so clients are tested against them through the real mock rather than hand-written answers. All are off by default.
 */
export interface ProductionVariants {
  /**
   * `GET /api/overlay` answers its page under `overlay` instead of the documented `cta`.
   * Reproduces "Overlay collection key: Spec says `cta`; one production version returns `overlay`."
   * @default false
   */
  overlayCollection: boolean;
  /**
   * `POST /api/domain/add` and `POST /api/pixel/add` answer `id` as a numeric string (`"12"`), not a number.
   * Reproduces "Ids of newly added domains and pixels come back as numeric strings in some versions."
   * @default false
   */
  stringIds: boolean;
  /**
   * Over-limit answers (`error: 429`) send `X-RateLimit-Remaining: -1` instead of clamping at 0.
   * Reproduces "`X-RateLimit-Remaining` is clamped at 0 (older versions sent -1)."
   * @default false
   */
  negativeRemaining: boolean;
  /**
   * The webhook gateway sends every attempt of an event (each retry, each replay, each injected duplicate copy) with a
   * new `X-Service-Delivery-ID`; the first attempt keeps the id `publish` returned and the attempt records show.
   * Reproduces "One version of the gateway's docs says it is 'generated per webhook attempt', i.e. a retry may carry a
   * new id", so receivers that dedupe on the event's own identity (`dedupeKey: 'event'`) are tested against it.
   * @default false
   */
  perAttemptDeliveryIds: boolean;
}

/** The name of one {@link ProductionVariants} entry, e.g. `'overlayCollection'`. */
export type ProductionVariantName = keyof ProductionVariants;

/**
 * The variants to switch on: a list of names, or an object of on/off flags.
 *
 * @example
 * createMockBackend({ variants: ['overlayCollection', 'stringIds'] });
 * createMockBackend({ variants: { negativeRemaining: true } });
 */
export type ProductionVariantsOption = readonly ProductionVariantName[] | Partial<ProductionVariants>;

/** Every variant name, in the order help texts and error messages list them. */
export const PRODUCTION_VARIANT_NAMES: readonly ProductionVariantName[] = Object.freeze([
  'overlayCollection',
  'stringIds',
  'negativeRemaining',
  'perAttemptDeliveryIds',
]);

/** Every variant off: the documented behaviour. */
const NONE: ProductionVariants = {
  overlayCollection: false,
  stringIds: false,
  negativeRemaining: false,
  perAttemptDeliveryIds: false,
};

function isVariantName(name: unknown): name is ProductionVariantName {
  return typeof name === 'string' && (PRODUCTION_VARIANT_NAMES as readonly string[]).includes(name);
}

/** A value as an error message quotes it; never throws (BigInt, null-prototype objects). */
function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || ['undefined', 'number', 'boolean'].includes(typeof value)) return String(value);
  return `a ${typeof value}`;
}

function unknownVariant(name: unknown): TypeError {
  return new TypeError(
    `variants: unknown variant ${show(name)}; the known variants are ${PRODUCTION_VARIANT_NAMES.join(', ')}.`,
  );
}

/**
 * Reads the `variants` option into one flag per variant, or throws a TypeError naming the bad entry and the known
 * variants.
 *
 * @example
 * resolveVariants(['stringIds']); // { overlayCollection: false, stringIds: true, negativeRemaining: false, ... }
 */
export function resolveVariants(option: ProductionVariantsOption | undefined): ProductionVariants {
  if (option === undefined) return { ...NONE };
  const resolved = { ...NONE };
  if (Array.isArray(option)) {
    for (const name of option as unknown[]) {
      if (!isVariantName(name)) throw unknownVariant(name);
      resolved[name] = true;
    }
    return resolved;
  }
  if (typeof option !== 'object' || option === null) {
    throw new TypeError(
      `variants must be a list of names or an object of true/false flags (got ${show(option)}); the known variants are ${PRODUCTION_VARIANT_NAMES.join(', ')}.`,
    );
  }
  for (const [name, on] of Object.entries(option)) {
    if (!isVariantName(name)) throw unknownVariant(name);
    // An undefined flag reads as "not given", as optional options do elsewhere.
    if (on === undefined) continue;
    if (typeof on !== 'boolean') {
      throw new TypeError(`variants.${name} must be true or false (got ${show(on)}).`);
    }
    resolved[name] = on;
  }
  return resolved;
}
