#!/usr/bin/env node
// `delivery-sdk-sandbox`: the sandbox server alone, as before `delivery-sdk sandbox` existed. Any
// error, a wrong flag included, exits 1, as it always did.
import { serveSandbox } from './sandbox-server.js';

serveSandbox(process.argv.slice(2), { command: 'delivery-sdk-sandbox', readyMerchant: false }).catch((err: unknown) => {
  console.error(`delivery-sdk-sandbox: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
