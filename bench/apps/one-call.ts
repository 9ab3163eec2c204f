// An app that makes one management call: `new Linkgate(...).account.get()`.
import { Linkgate } from '../../src/index.js';

const client = new Linkgate({ apiKey: 'k', baseUrl: 'https://links.example.com', dangerouslyAllowBrowser: true });

/** Reads the caller's account. */
export const main = () => client.account.get();
