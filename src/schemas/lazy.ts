// Schemas built on first use (docs/decisions/schemas-built-on-first-use.md): importing linkgate constructed ~560
// zod/mini schemas, two thirds of the SDK's cold start; a call now builds only the schemas of its own operation.

/**
 * Returns a stand-in for the value `build` makes, and calls `build` once, on the first read of any property of the
 * stand-in (`schema.parse`, `schema._zod`, `schema.shape`...). zod reads schemas only through properties, so a
 * stand-in nests, parses and converts to JSON Schema as the schema itself would. Reflection sees an empty object
 * (`Object.keys`, `console.log`, property spreads): read `.shape` to spread an object schema's fields.
 *
 * The second parameter is where the value is kept once built: callers pass one argument.
 */
export const lazy = <T extends object>(build: () => T, value?: T): T =>
  new Proxy({} as T, {
    get: (_, key) => {
      value ??= build();
      return value[key as keyof T];
    },
  });
