// The linkgate SDK in a browser page, answered by the reference mock inside a service worker (msw `setupWorker`).
// Run: node --import tsx examples/browser/serve.ts   then open the URL it prints (it bundles this file with esbuild).
// Never put a real API key in browser code: `dangerouslyAllowBrowser` is for demos and tests like this one.
import { Linkgate } from 'linkgate';
import { createMockBackend } from 'linkgate/mock';
import { setupWorker } from 'msw/browser';

/** Starts the mock in a service worker and lists alice's branded domains (demo data) into the page. */
export async function main(doc: Document = document): Promise<number> {
  const status = doc.getElementById('status')!;
  const list = doc.getElementById('domains')!;

  const backend = createMockBackend({ seed: 'demo' });
  const worker = setupWorker(...backend.handlers);
  await worker.start({ serviceWorker: { url: './mockServiceWorker.js' }, onUnhandledFrame: 'bypass', quiet: true });

  const alice = [...backend.store.users.values()].find((user) => user.username === 'alice');
  if (!alice) throw new Error('the demo seed has no user alice');
  const client = new Linkgate({ apiKey: alice.apikey, baseUrl: location.origin, dangerouslyAllowBrowser: true });

  status.textContent = 'Listing domains through the SDK…';
  let count = 0;
  for await (const domain of client.domains.list({ limit: 1 })) {
    const item = doc.createElement('li');
    item.textContent = domain.domain;
    list.append(item);
    count++;
  }
  status.textContent = `${count} domains`;
  status.dataset.state = 'done';
  return count;
}

main().catch((error: unknown) => {
  const status = document.getElementById('status')!;
  status.textContent = `Failed: ${error instanceof Error ? error.message : String(error)}`;
  status.dataset.state = 'error';
  console.error(error);
});
