// Bundled by bun-deno.test.ts into one ESM file and run on Bun and Deno: a `linkgate/webhooks` receiver.
import { createTestDelivery, createWebhookHandler, verifyWebhook, WebhookVerificationError } from 'linkgate/webhooks';
import { report, requiredEnv } from './support/runtime-env.js';

await report(async () => {
  const secret = requiredEnv('LINKGATE_WEBHOOK_SECRET');
  const forgedSecret = requiredEnv('LINKGATE_FORGED_SECRET');
  const text = requiredEnv('LINKGATE_MESSAGE_TEXT');
  const now = Math.floor(Date.now() / 1000);
  const event = {
    event: 'message.received' as const,
    data: {
      message_id: '3EB0C767D26A1D5A9F3B',
      sender: '6281234567890',
      sender_jid: '6281234567890@s.whatsapp.net',
      text,
      has_media: false,
      timestamp: now - 1,
    },
  };

  const seen: string[] = [];
  const handler = createWebhookHandler({
    secret,
    on: { 'message.received': (e) => void seen.push(e.data.text ?? '') },
  });

  const valid = await handler(createTestDelivery({ ...event, secret }).request);
  const forged = await handler(createTestDelivery({ ...event, secret: forgedSecret }).request);
  const forgedBody = (await forged.json()) as { code?: string };

  // The framework-free path: headers and raw body as a server hands them over.
  const delivery = createTestDelivery({ ...event, secret });
  const verified = await verifyWebhook({ headers: delivery.headers, body: delivery.body }, { secret });
  let forgedVerify: Record<string, unknown> = { thrown: false };
  try {
    const other = createTestDelivery({ ...event, secret: forgedSecret });
    await verifyWebhook({ headers: other.headers, body: other.body }, { secret });
  } catch (error) {
    forgedVerify = {
      thrown: true,
      isWebhookVerificationError: error instanceof WebhookVerificationError,
      code: (error as WebhookVerificationError).code,
    };
  }

  return {
    handler: { validStatus: valid.status, forgedStatus: forged.status, forgedCode: forgedBody.code, seen },
    verify: {
      event: verified.event,
      known: verified.known,
      text: verified.known && verified.event === 'message.received' ? verified.data.text : undefined,
    },
    forgedVerify,
  };
});
