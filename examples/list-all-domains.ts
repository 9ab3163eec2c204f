/**
 * Lists every branded domain of the account, page by page (pagination).
 *
 * Run against a server (e.g. `npm start` prints a key for the demo data):
 *   LINKGATE_BASE_URL=http://127.0.0.1:4010 LINKGATE_API_KEY=<key> node --import tsx examples/list-all-domains.ts
 */
import { pathToFileURL } from 'node:url';
import { type Domain, Linkgate, type LinkgateOptions } from 'linkgate';

/** Options of {@link main}: the client's (apiKey and baseUrl default to the environment) plus where lines go. */
export interface ListAllDomainsOptions extends LinkgateOptions {
  /** Records per page. @default 10 */
  perPage?: number;
  /** Where output lines go. @default console.log */
  log?: (line: string) => void;
}

/** Prints every domain with its redirects and returns them all. */
export async function main(options: ListAllDomainsOptions = {}): Promise<Domain[]> {
  const { perPage = 10, log = console.log, ...clientOptions } = options;
  const client = new Linkgate(clientOptions);
  const domains: Domain[] = [];
  // `.pages()` walks the pages in order; `for await (const d of client.domains.list())` would yield items directly.
  for await (const page of client.domains.list({ limit: perPage }).pages()) {
    log(`page ${page.page} of ${page.maxPage} (${page.total} domains in all)`);
    for (const domain of page.items) {
      log(
        `  #${domain.id} ${domain.domain}  root -> ${domain.redirectroot || '(none)'}  404 -> ${domain.redirect404 || '(none)'}`,
      );
      domains.push(domain);
    }
  }
  if (domains.length === 0)
    log('no domains yet: add one with client.domains.create({ domain: "https://go.example.com" })');
  return domains;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
