// A checkout page's script: bundled with esbuild from the installed package's ESM main entry and
// loaded by Chromium from 127.0.0.1. It creates an order against the sandbox's HTTP server (another
// origin, so every call goes through CORS) and renders what happened; the runner reads the page.
import { CodLimitExceededError, DeliveryClient, DeliveryType, isDeliveryError } from 'delivery-sdk';

const config = JSON.parse(document.getElementById('smoke-config').textContent);
const field = (id, text) => {
  document.getElementById(id).textContent = String(text);
};

const order = {
  type: DeliveryType.Deliver,
  dropOffAddress: { city: 'Giza', districtId: 'district-eg-giza-dokki', firstLine: '12 Tahrir Street, 3rd floor' },
  receiver: { firstName: 'Mona', lastName: 'Adel', phone: '+201012345678' },
  cod: 250,
  businessReference: config.businessReference,
};

try {
  // The headers the client sends, as its hook sees them: Chromium would drop a User-Agent the SDK set,
  // so only the SDK's own view can tell that it set none (the header would force a CORS preflight).
  const agents = new Set();
  const hooks = { onRequest: ({ headers }) => void agents.add(headers['user-agent'] ?? 'none') };
  const client = new DeliveryClient({ baseUrl: config.baseUrl, apiKey: config.apiKey, timeout: 10_000, hooks });
  const created = await client.deliveries.create(order);
  field('tracking-number', created.trackingNumber);
  field('order-type', created.type ?? order.type);
  field('order-state', created.state?.value ?? 'created');
  field('order-cod', `${created.cod ?? order.cod} EGP`);

  const refused = await client.deliveries.create({ ...order, cod: 50_000 }).then(
    () => new Error('a cod of 50000 was accepted'),
    (error) => error,
  );
  field('refused-class', refused instanceof CodLimitExceededError ? refused.name : `unexpected: ${refused}`);
  field('refused-code', isDeliveryError(refused) ? refused.errorCode : '-');
  field('refused-source', refused.source ?? '-');
  field('refused-message', refused.message);
  field('user-agent', [...agents].join(', '));
  document.body.dataset.status = 'done';
} catch (error) {
  field('failure', error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  document.body.dataset.status = 'failed';
}
