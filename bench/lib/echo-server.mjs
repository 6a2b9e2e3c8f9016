/** The per-call benchmarks' server: reads each request and answers at once with a fixed body. */
import { createServer } from 'node:http';
import { CREATED_ANSWER } from './order.mjs';

const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(CREATED_ANSWER) };
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200, headers).end(CREATED_ANSWER));
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send({ baseUrl: `http://127.0.0.1:${server.address().port}/v2` }));
// Never outlive the bench: exit when the parent goes away.
process.on('disconnect', () => process.exit(0));
