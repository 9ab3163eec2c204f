/** The error for a failed `import('msw')`: a missing package names the install command; anything else is kept as cause. */
export function mswLoadError(error: unknown): Error {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
    return new Error(
      'backend.handlers needs msw, an optional peer dependency of linkgate/mock: run `npm install -D msw`. ' +
        'startMockServer, the `linkgate mock` command and backend.fetch work without it.',
      { cause: error },
    );
  }
  return new Error(`msw could not be loaded for backend.handlers: ${(error as Error)?.message ?? String(error)}`, {
    cause: error,
  });
}
