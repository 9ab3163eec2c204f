// Bundled by workerd.test.ts into one ES module Worker and served by workerd: a Worker that receives linkgate
// webhooks and calls the API with the SDK, as a user deploys one on Cloudflare.
import { Linkgate } from 'linkgate';
import { createWebhookHandler, type WebhookRequestHandler } from 'linkgate/webhooks';

/** The Worker's text bindings, set in the workerd config the test writes. */
interface Env {
  LINKGATE_WEBHOOK_SECRET: string;
  LINKGATE_API_KEY: string;
  LINKGATE_BASE_URL: string;
}

// Module state lives as long as the isolate: the test reads it back through /seen to prove the handler ran.
const seen: string[] = [];
let webhooks: WebhookRequestHandler | undefined;

/** The webhook endpoint, built on first use: a module Worker sees its bindings only inside fetch. */
function webhookHandler(env: Env): WebhookRequestHandler {
  webhooks ??= createWebhookHandler({
    secret: env.LINKGATE_WEBHOOK_SECRET,
    on: { 'message.received': (event) => void seen.push(event.data.text ?? '') },
  });
  return webhooks;
}

/** The account and every domain, paged two at a time, through the SDK on the Worker's own fetch. */
async function accountSummary(env: Env): Promise<Record<string, unknown>> {
  const client = new Linkgate({ apiKey: env.LINKGATE_API_KEY, baseUrl: env.LINKGATE_BASE_URL, fetch });
  const account = await client.account.get();
  const domains: string[] = [];
  for await (const domain of client.domains.list({ limit: 2 })) domains.push(domain.domain);
  return { userAgent: navigator.userAgent, username: account.username, domainCount: domains.length, domains };
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const { pathname } = new URL(request.url);
    try {
      if (pathname === '/webhooks') return await webhookHandler(env)(request);
      if (pathname === '/seen') return Response.json({ seen });
      if (pathname === '/sdk') return Response.json(await accountSummary(env));
      return Response.json({ error: `no route ${pathname}` }, { status: 404 });
    } catch (error) {
      // The test prints this: a crash inside workerd must fail with its cause, not as a bare 500.
      const e = error as Error;
      return Response.json({ crashed: `${e?.name}: ${e?.message}\n${e?.stack ?? ''}` }, { status: 500 });
    }
  },
};
