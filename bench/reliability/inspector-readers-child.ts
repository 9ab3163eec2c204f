// The inspector's readers, in their own process: their sockets and reading must not count as the server's work.
// `node inspector-readers-child.ts <port> <token> <readers> <stalled>` opens <readers> feeds, of which the first
// <stalled> stop reading after their first bytes; prints "open" once every feed has had its snapshot; then, on the
// line "report" on stdin, prints one JSON line (the bytes each reading feed got since "open") and exits.
import { createInterface } from 'node:readline';
import { openFeeds } from './inspector-readers.js';

const [port, token, count, stalled] = [
  Number(process.argv[2]),
  process.argv[3]!,
  Number(process.argv[4]),
  Number(process.argv[5]),
];
const readers = await openFeeds(port, token, count, stalled);
console.log('open');
for await (const line of createInterface({ input: process.stdin })) {
  if (line !== 'report') continue;
  console.log(JSON.stringify(await readers.report()));
  process.exit(0);
}
