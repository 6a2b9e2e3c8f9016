// An instance of the webhook route (instance.ts) as a process of its own, forked by
// instances.test.ts for the instance it SIGKILLs. The parent plays the service: it sends
// deliveries over IPC, and the worker answers each with the handler's status and what the tracker
// reported. An answer is the acknowledgement the service would get.
//
// Usage: node --import tsx worker.ts <ioredis|node-redis> <port> <keyPrefix>
import type { ClientName } from './clients.js';
import { type InstanceAnswer, openInstance } from './instance.js';

export type FromParent = { readonly delivery: number; readonly body: Readonly<Record<string, unknown>> };
export type FromWorker = { readonly ready: true } | ({ readonly delivery: number } & InstanceAnswer);

const [clientName, port, keyPrefix = ''] = process.argv.slice(2);
const instance = await openInstance(clientName as ClientName, Number(port), keyPrefix);

process.on('message', (message: FromParent) => {
  void instance.deliver(message.body).then((answer) => process.send?.({ delivery: message.delivery, ...answer } satisfies FromWorker));
});
// The parent closes the channel when it has nothing more to send and every answer came.
process.on('disconnect', () => {
  void instance.close().then(() => process.exit(0));
});
process.send?.({ ready: true } satisfies FromWorker);
