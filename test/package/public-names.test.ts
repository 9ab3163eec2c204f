// The names each public entry exports, values and types alike, written out: growing or shrinking the public surface is
// a decision taken here, with a changeset, not a side effect of an `export *`. Internals stay reachable to tests by
// relative path; users get only these.
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Each entry's source, and the names it exports: those that exist at run time and those that are types only. */
const ENTRIES = {
  'linkgate/webhooks': {
    source: 'src/webhooks/index.ts',
    values: [
      'EVENT_NAMES',
      'MemoryDedupeStore',
      'WEBHOOK_ERROR_STATUS',
      'WebhookVerificationError',
      'createTestDelivery',
      'createWebhookHandler',
      'createWebhookVerifier',
      'decodeQrImage',
      'isMediaAcceptable',
      'parseWebhookEvent',
      'toNodeHandler',
      'verifyWebhook',
      'verifyWebhookSync',
    ],
    types: [
      'DedupeStore',
      'DeviceQrEvent',
      'DeviceStatusEvent',
      'EventName',
      'Media',
      'MessageAckEvent',
      'MessageReceivedEvent',
      'MessageSentEvent',
      'NodeHandlerOptions',
      'NodeWebhookHandler',
      'ParsedWebhookEvent',
      'TestDelivery',
      'TestDeliveryOptions',
      'VerifiedDelivery',
      'VerifyWebhookOptions',
      'WebhookDeliveryInput',
      'WebhookErrorCode',
      'WebhookEvent',
      'WebhookHandlerOptions',
      'WebhookHandlers',
      'WebhookRequestHandler',
      'WebhookSecretOption',
      'WebhookTypes',
      'WebhookVerifier',
      'WebhookVerifierOptions',
    ],
  },
  'linkgate/mock': {
    source: 'mock/index.ts',
    values: [
      'GatewayInputError',
      'ManualClock',
      'PRODUCTION_VARIANT_NAMES',
      'SendRejection',
      'createMockBackend',
      'describeCaller',
      'startMockServer',
    ],
    types: [
      'Gateway',
      'GatewayOptions',
      'MockBackend',
      'MockBackendOptions',
      'MockData',
      'MockGateway',
      'MockServer',
      'MockStore',
      'ProductionVariantName',
      'ProductionVariants',
      'ProductionVariantsOption',
      'RateLimitOptions',
      'RequestLogEntry',
      'StartMockServerOptions',
    ],
  },
} as const;

/** Every name an entry's module exports, as the type checker sees it (values, types and namespaces). */
function exportedNames(source: string): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    `${root}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json: could not be read');
  const program = ts.createProgram([`${root}${source}`], config.options);
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(`${root}${source}`);
  const symbol = file && checker.getSymbolAtLocation(file);
  if (!symbol) throw new Error(`${source}: not a module`);
  return checker
    .getExportsOfModule(symbol)
    .map((s) => s.name)
    .sort();
}

describe.each(Object.entries(ENTRIES))('the public names of %s', (entry, { source, values, types }) => {
  it('holds exactly the listed run-time names', async () => {
    const module = (await import(`${root}${source}`)) as Record<string, unknown>;
    expect(Object.keys(module).sort()).toEqual([...values].sort());
  });

  it('holds exactly the listed names, types included, and at most about 40 of them', () => {
    const names = exportedNames(source);
    expect(names).toEqual([...values, ...types].sort());
    expect(names.length, `${entry} exports ${names.length} names`).toBeLessThanOrEqual(40);
  }, 30_000);
});
