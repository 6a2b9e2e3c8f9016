#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { createSandbox } from '../testing/index.js';

const HELP = `delivery-sdk-sandbox: the Delivery Service API sandbox over HTTP, on this machine only.

Usage: delivery-sdk-sandbox [--port 4010] [--host 127.0.0.1] [--api-key KEY] [--seed N]
                            [--cors ORIGIN]... [--allow-host NAME]... [--webhook-host NAME]...
                            [--webhook-url URL [--webhook-header-name NAME --webhook-header-value VALUE]]

Prints the base URL (ending in /v2) once ready; Ctrl-C stops it. A --host other than a loopback
one opens the API and its key to the network, and prints a warning. The API answers web pages
from this machine, and --cors origins (https://app.example:3000); a Host that is loopback, an IP
address, or an --allow-host name. Webhooks go to loopback receivers and --webhook-host names.
Control endpoints for tests (this machine only: loopback peer and Host; no CORS):
<origin>/__sandbox/otp?phone=, /__sandbox/orders,
POST /__sandbox/orders/<trackingNumber>/advance {"to": 20}, POST .../play {"scenario": "success"},
PUT /__sandbox/webhook, GET /__sandbox/webhooks, POST|DELETE /__sandbox/faults.`;

/** `Number('')` is 0 and `Number('abc')` NaN: a typo must not quietly pick a port or an unseeded run. */
function wholeNumber(flag: string, text: string): number {
  if (!/^\d+$/.test(text.trim())) throw new Error(`${flag}: expected a whole number, received '${text}'`);
  return Number(text);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      'api-key': { type: 'string' },
      seed: { type: 'string' },
      cors: { type: 'string', multiple: true },
      'allow-host': { type: 'string', multiple: true },
      'webhook-host': { type: 'string', multiple: true },
      'webhook-url': { type: 'string' },
      'webhook-header-name': { type: 'string' },
      'webhook-header-value': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    console.log(HELP);
    return;
  }
  const port = wholeNumber('--port', values.port);
  if (port > 65535) throw new Error(`--port: expected a port number (0-65535), received '${values.port}'`);
  const sandbox = createSandbox({
    ...(values['api-key'] === undefined ? {} : { apiKey: values['api-key'] }),
    ...(values.seed === undefined ? {} : { seed: wholeNumber('--seed', values.seed) }),
    ...(values['webhook-host'] === undefined ? {} : { webhookHosts: values['webhook-host'] }),
  });
  if (values['webhook-url'] !== undefined) {
    sandbox.setWebhook({
      url: values['webhook-url'],
      ...(values['webhook-header-name'] === undefined ? {} : { headerName: values['webhook-header-name'] }),
      ...(values['webhook-header-value'] === undefined ? {} : { headerValue: values['webhook-header-value'] }),
    });
  }
  const server = await sandbox.listen({
    port,
    host: values.host,
    ...(values.cors === undefined ? {} : { cors: values.cors }),
    ...(values['allow-host'] === undefined ? {} : { allowedHosts: values['allow-host'] }),
  });
  console.log(`Delivery sandbox listening on ${server.baseUrl} (API key: ${sandbox.apiKey})`);
  const stop = (): void => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(`delivery-sdk-sandbox: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
