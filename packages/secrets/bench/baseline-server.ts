import { createServer } from 'node:http';

/**
 * The baseline every figure is compared with: bare `node:http` answering a fixed JSON
 * body of about the size of a KV read. Run as its own process, like the server under test.
 */
const body = JSON.stringify({
  request_id: '00000000-0000-4000-8000-000000000000',
  lease_id: '',
  renewable: false,
  lease_duration: 0,
  data: { data: { password: 'correct horse battery staple' }, metadata: { version: 1 } },
  wrap_info: null,
  warnings: null,
  auth: null,
});
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`listening on ${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
