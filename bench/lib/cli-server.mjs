/**
 * The cheap server of the command line's import bench: answers at once, keeping nothing. A bulk
 * upload gets an id for each order (read off the body with one JSON.parse); a search by
 * `businessReference` gets one order per reference, its id and tracking number derived from the
 * reference, as `resolveTrackingNumbers` reads them. Anything else gets an empty success.
 */
import { createServer } from 'node:http';

const idOf = (reference) => `65f1${Buffer.from(reference).toString('hex').padStart(20, '0').slice(-20)}`;
const trackingNumberOf = (reference) => String(70_000_000 + Number(reference.replace(/\D/g, '').slice(-7) || 0));

function answer(url, body) {
  if (url.includes('/deliveries/bulk')) {
    const { deliveries = [] } = JSON.parse(body);
    return { createdDeliveriesIds: deliveries.map((order) => idOf(order.businessReference ?? '')), failedDeliveries: [] };
  }
  if (url.includes('/deliveries/search')) {
    const { businessReference = '', page = 1, limit = 50 } = JSON.parse(body || '{}');
    const references = page > 1 ? [] : String(businessReference).split(',').filter(Boolean);
    const deliveries = references.map((reference) => ({ _id: idOf(reference), trackingNumber: trackingNumberOf(reference), businessReference: reference }));
    return { deliveries, count: deliveries.length, page, limit };
  }
  return {};
}

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const text = JSON.stringify({ success: true, message: 'OK', data: answer(request.url, Buffer.concat(chunks).toString()) });
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send({ baseUrl: `http://127.0.0.1:${server.address().port}/v2`, apiKey: 'bench-api-key' }));
// Never outlive the bench: exit when the parent goes away.
process.on('disconnect', () => process.exit(0));
