// What the usage scripts need from whichever runtime runs them, read without Node's types: they run on Bun and Deno.

interface RuntimeGlobals {
  Bun?: { version: string };
  Deno?: { version: { deno: string }; env: { get(name: string): string | undefined } };
  process?: { env: Record<string, string | undefined>; versions?: { node?: string } };
}

const g = globalThis as RuntimeGlobals;

/** Which runtime runs this script and its version, so the test can prove it was not Node. */
export function runtimeName(): string {
  if (g.Bun) return `bun ${g.Bun.version}`;
  if (g.Deno) return `deno ${g.Deno.version.deno}`;
  return `other (node ${g.process?.versions?.node ?? '?'})`;
}

/** An environment variable the test passed in; Deno reads it through `Deno.env` (needs --allow-env). */
export function requiredEnv(name: string): string {
  const value = g.Deno ? g.Deno.env.get(name) : g.process?.env[name];
  if (!value) throw new Error(`${name} is not set: the test passes it to the usage script.`);
  return value;
}

/** The marker in front of the one result line, so runtime noise on stdout cannot be mistaken for it. */
export const RESULT_MARKER = 'LINKGATE_RUNTIME_RESULT ';

/** Prints the result line, or the failure as a result line, and never throws. */
export async function report(run: () => Promise<Record<string, unknown>>): Promise<void> {
  let result: Record<string, unknown>;
  try {
    result = { runtime: runtimeName(), ...(await run()) };
  } catch (error) {
    const e = error as Error;
    result = { runtime: runtimeName(), crashed: `${e?.name}: ${e?.message}\n${e?.stack ?? ''}` };
  }
  console.log(RESULT_MARKER + JSON.stringify(result));
}
