/**
 * The benchmarks' cheap server: reads each request and answers at once. A create gets a fixed
 * body; a bulk upload (`/deliveries/bulk`) gets every order of its chunk created, read off the
 * body with one JSON.parse: the least a real answer needs, so the client's own work is what shows.
 */
import { createServer } from 'node:http';
import { CREATED_ANSWER } from './order.mjs';

const createdHeaders = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(CREATED_ANSWER) };
const IDS = Array.from({ length: 1_000 }, (_, i) => `65f1c0a2e4b0a1b2c3d${String(i).padStart(5, '0')}`);

function bulkAnswer(body) {
  const { deliveries = [] } = JSON.parse(body);
  return JSON.stringify({ success: true, message: 'Bulk created', data: { createdDeliveriesIds: IDS.slice(0, deliveries.length), failedDeliveries: [] } });
}

const server = createServer((request, response) => {
  if (!request.url.includes('/deliveries/bulk')) {
    request.resume();
    request.on('end', () => response.writeHead(200, createdHeaders).end(CREATED_ANSWER));
    return;
  }
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const answer = bulkAnswer(Buffer.concat(chunks).toString());
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) }).end(answer);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send({ baseUrl: `http://127.0.0.1:${server.address().port}/v2`, apiKey: 'bench-api-key' }));
// Never outlive the bench: exit when the parent goes away.
process.on('disconnect', () => process.exit(0));
