/**
 * One process run of the telemetry benchmark (bench/lib/telemetry.mjs): the same create without
 * `telemetry`, with `openTelemetry()` and no OpenTelemetry SDK registered (the API alone, as an
 * application that installed it for another library), and with an SDK recording every span and
 * metric (for scale); and a second client without it, the control that shows the noise floor. Sequential calls in blocks whose variant order is shuffled every round; the
 * median per variant, and the process's CPU time per call (user + system around each block).
 */
import { pathToFileURL } from 'node:url';
import { childMain } from './child.mjs';
import { realisticOrder } from './order.mjs';
import { median, shuffled } from './stats.mjs';

const cpuMs = (usage) => (usage.user + usage.system) / 1000;

childMain(async ({ mainModule, telemetryModule, baseUrl, apiKey, calls, block, warmup }) => {
  const { DeliveryClient } = await import(pathToFileURL(mainModule).href);
  const { openTelemetry } = await import(pathToFileURL(telemetryModule).href);
  const { BasicTracerProvider, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const { MeterProvider } = await import('@opentelemetry/sdk-metrics');
  // An SDK that records and batches every span, then drops the batch: its exporter costs nothing.
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor({ export: (_spans, done) => done({ code: 0 }), shutdown: async () => undefined })],
  });
  const meterProvider = new MeterProvider();
  const order = realisticOrder();
  const clients = {
    off: new DeliveryClient({ baseUrl, apiKey }),
    // The same as `off`, a second client: how far two identical variants drift apart in one run.
    control: new DeliveryClient({ baseUrl, apiKey }),
    api: new DeliveryClient({ baseUrl, apiKey, telemetry: openTelemetry() }),
    sdk: new DeliveryClient({ baseUrl, apiKey, telemetry: openTelemetry({ tracerProvider, meterProvider }) }),
  };
  const names = Object.keys(clients);
  for (const name of names) for (let i = 0; i < warmup; i++) await clients[name].deliveries.create(order);

  const measured = Object.fromEntries(names.map((name) => [name, { durations: [], cpu: 0 }]));
  for (let round = 0; round < calls / block; round++) {
    for (const name of shuffled(names)) {
      const client = clients[name];
      const { durations } = measured[name];
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < block; i++) {
        const t0 = performance.now();
        await client.deliveries.create(order);
        durations.push(performance.now() - t0);
      }
      measured[name].cpu += cpuMs(process.cpuUsage(cpu0));
    }
  }
  await tracerProvider.shutdown();
  const result = Object.fromEntries(
    names.map((name) => [name, { median: median(measured[name].durations), cpu: measured[name].cpu / measured[name].durations.length }]),
  );
  return { ...result, seamMicros: seamMicros(openTelemetry()) };
});

/**
 * The telemetry's own work for one call, in microseconds, without the call around it: what
 * `openTelemetry()` is told of a create that succeeds at its first attempt (the call, the attempt
 * and its headers, both ends), timed over many repetitions: a figure the network's noise cannot hide.
 */
function seamMicros(telemetry) {
  const operation = { name: 'deliveries.create', method: 'POST', route: '/deliveries?apiVersion=1', createsOrder: true };
  const headers = { accept: 'application/json', authorization: 'bench-api-key', 'content-type': 'application/json' };
  const result = { trackingNumber: '70000001' };
  const once = () => {
    const call = telemetry.call(operation, 'https://api.example.com/v2', undefined);
    if (call === undefined) return; // nothing would be recorded: the SDK tells nothing more of the call
    const attempt = call.attempt(0, 'https://api.example.com/v2/deliveries?apiVersion=1');
    attempt.headers(headers);
    attempt.end(201);
    call.end({ result });
  };
  for (let i = 0; i < 20_000; i++) once();
  const times = [];
  for (let block = 0; block < 20; block++) {
    const t0 = performance.now();
    for (let i = 0; i < 10_000; i++) once();
    times.push(((performance.now() - t0) * 1000) / 10_000);
  }
  return median(times);
}
