// A plain node:http stand-in for the service on 127.0.0.1: it records every request as it came
// over the wire and answers each order as created, so a test sees exactly what the SDK sent.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WireRequest {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}

export interface WireRecorder {
  readonly baseUrl: string;
  readonly requests: WireRequest[];
  close(): Promise<void>;
}

export async function startWireRecorder(): Promise<WireRecorder> {
  const requests: WireRequest[] = [];
  let created = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', path: req.url ?? '', body: text === '' ? undefined : JSON.parse(text) });
      created++;
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true, message: 'Success', data: { _id: `order-${created}`, trackingNumber: String(7_000_000 + created) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v2`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
