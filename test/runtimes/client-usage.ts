// Bundled by bun-deno.test.ts into one ESM file and run on Bun and Deno: the `linkgate` calls a user makes first.
import { APIError, Linkgate, LinkgateError, NotFoundError } from 'linkgate';
import { report, requiredEnv } from './support/runtime-env.js';

await report(async () => {
  const client = new Linkgate({ apiKey: requiredEnv('LINKGATE_API_KEY'), baseUrl: requiredEnv('LINKGATE_BASE_URL') });
  const limit = Number(requiredEnv('LINKGATE_PAGE_LIMIT'));

  const account = await client.account.get();

  // Every item through the async iterator, and the page count through pages(), so paging is proved both ways.
  const domains: string[] = [];
  for await (const domain of client.domains.list({ limit })) domains.push(domain.domain);
  let pages = 0;
  for await (const _page of client.domains.list({ limit }).pages()) pages += 1;

  const created = await client.pixels.create({ type: 'gtmpixel', name: 'Runtime check', tag: 'GTM-RUNTIME1' });
  const deleted = await client.pixels.delete(created.id);

  // Deleting it again is the service's "not found": the class must survive bundling and the other runtime.
  let notFound: Record<string, unknown> = { thrown: false };
  try {
    await client.pixels.delete(created.id);
  } catch (error) {
    notFound = {
      thrown: true,
      isNotFoundError: error instanceof NotFoundError,
      isAPIError: error instanceof APIError,
      isLinkgateError: error instanceof LinkgateError,
      name: (error as Error).name,
    };
  }

  return {
    account: { username: account.username, email: account.email },
    domains,
    pages,
    pixel: { created: created.id, deletedMessage: deleted.message },
    notFound,
  };
});
