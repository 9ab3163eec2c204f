// The inspector's readers, in their own process: their sockets and reading must not count as the server's work.
// `node inspector-readers-child.ts <port> <token> <readers> <stalled>` opens <readers> feeds, of which the first
// <stalled> stop reading after their first bytes; prints "open" once every feed has had bytes; then, on the line
// "report" on stdin, prints one JSON line (the bytes each reading feed got since "open") and exits.
import { connect } from 'node:net';
import { createInterface } from 'node:readline';

const [port, token, readers, stalled] = [
  Number(process.argv[2]),
  process.argv[3]!,
  Number(process.argv[4]),
  Number(process.argv[5]),
];
const received = new Array<number>(readers).fill(0);
const sockets = received.map((_, i) => {
  const socket = connect(port, '127.0.0.1');
  socket.write(`GET /__mock/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n\r\n`);
  socket.on('data', (d: Buffer) => {
    received[i]! += d.length;
    if (i < stalled) socket.pause();
  });
  return socket;
});
const deadline = performance.now() + 30_000;
while (received.some((n) => n === 0)) {
  if (performance.now() > deadline) throw new Error(`only ${received.filter((n) => n > 0).length} feeds opened`);
  await new Promise((r) => setTimeout(r, 10));
}
// Every reader has had its snapshot; count from here.
await new Promise((r) => setTimeout(r, 300));
const atOpen = [...received];
console.log('open');
for await (const line of createInterface({ input: process.stdin })) {
  if (line !== 'report') continue;
  console.log(JSON.stringify(received.map((n, i) => n - atOpen[i]!).slice(stalled)));
  for (const s of sockets) s.destroy();
  process.exit(0);
}
