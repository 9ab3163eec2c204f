// A webhook receiver in its own process for the inspector's browser run: answers every delivery with the status it is
// told (503 at first, a failing receiver), records what it got. POST /__answer {"status":200} changes the answer;
// GET /__received lists the bodies. Prints "receiver listening on <url>". Loopback only.
import { createServer } from 'node:http';

let status = 503;
const received = [];
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    if (req.url === '/__answer') {
      status = JSON.parse(body).status;
      res.writeHead(200).end();
      return;
    }
    if (req.url === '/__received') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received));
      return;
    }
    received.push({ path: req.url, body: JSON.parse(body) });
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(status === 200 ? '{"status":"success"}' : '{"error":"receiver down for the demo"}');
  });
});
server.listen(0, '127.0.0.1', () => console.log(`receiver listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => process.exit(0));
