// The real wire, not only the in-memory path: spans exported over OTLP/HTTP
// (@opentelemetry/exporter-trace-otlp-http) to a receiver on loopback, read back from what it got.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeliverOrder, DeliveryClient } from '../../src/index.js';
import { openTelemetry } from '../../src/telemetry/index.js';
import { receiver } from '../support/orders.js';
import { dropOff, sandboxWithAccount } from '../support/sandbox.js';

const { version: VERSION } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** A span as OTLP/JSON carries it. */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** 1 INTERNAL, 2 SERVER, 3 CLIENT. */
  kind: number;
  attributes: Array<{ key: string; value: { stringValue?: string; intValue?: number | string; boolValue?: boolean } }>;
  status?: { code?: number };
}

let server: Server;
const bodies: Array<{ contentType: string | undefined; json: any }> = [];

beforeAll(async () => {
  // An OTLP/HTTP receiver: what a collector's otlphttp endpoint does with traces, kept in memory.
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces')
        bodies.push({ contentType: req.headers['content-type'], json: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});
afterAll(async () => {
  propagation.disable();
  await new Promise((resolve) => server.close(resolve));
});

const attribute = (span: OtlpSpan, key: string): string | number | boolean | undefined => {
  const value = span.attributes.find((attribute) => attribute.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? value?.boolValue : Number(value.intValue));
};

describe('exporting over OTLP/HTTP', () => {
  it('delivers the call span and its attempt to a collector, with the ids the service saw in traceparent', async () => {
    const { port } = server.address() as AddressInfo;
    const tracerProvider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `http://127.0.0.1:${port}/v1/traces` }))],
    });
    const { sandbox } = await sandboxWithAccount();
    const traceparents: Array<string | null> = [];
    const client = new DeliveryClient({
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      fetch: (input, init) => {
        traceparents.push((input instanceof Request ? input.headers : new Headers(init?.headers)).get('traceparent'));
        return sandbox.fetch(input, init);
      },
      telemetry: openTelemetry({ tracerProvider }),
    });
    const order = { type: 10, dropOffAddress: dropOff, receiver: receiver(), cod: 250 } as DeliverOrder;
    const created = await client.deliveries.create(order);
    await tracerProvider.forceFlush();
    await tracerProvider.shutdown();
    await sandbox.close();

    expect(bodies.length).toBeGreaterThan(0);
    expect(bodies.every((body) => body.contentType === 'application/json')).toBe(true);
    const scopes = bodies.flatMap((body) => body.json.resourceSpans.flatMap((resource: any) => resource.scopeSpans));
    expect(new Set(scopes.map((scope: any) => `${scope.scope.name}@${scope.scope.version}`))).toEqual(new Set([`delivery-sdk@${VERSION}`]));
    const spans: OtlpSpan[] = scopes.flatMap((scope: any) => scope.spans);

    const call = spans.find((span) => span.name === 'deliveries.create');
    const attempt = spans.find((span) => span.kind === 3);
    expect(call?.kind).toBe(1);
    expect(attempt?.name).toBe('POST /v2/deliveries');
    expect(attempt?.parentSpanId).toBe(call?.spanId);
    expect(attempt?.traceId).toBe(call?.traceId);
    expect(traceparents).toEqual([`00-${attempt?.traceId}-${attempt?.spanId}-01`]);
    expect(attribute(call as OtlpSpan, 'delivery.tracking_number')).toBe(created.trackingNumber);
    expect(attribute(attempt as OtlpSpan, 'url.template')).toBe('/v2/deliveries');
    expect(attribute(attempt as OtlpSpan, 'url.full')).toBe('https://sandbox.delivery-sdk.test/v2/deliveries?apiVersion=1');
    expect(attribute(attempt as OtlpSpan, 'http.response.status_code')).toBe(201);
    expect(attribute(attempt as OtlpSpan, 'server.address')).toBe('sandbox.delivery-sdk.test');
    expect(attribute(attempt as OtlpSpan, 'server.port')).toBe(443);
  });
});
