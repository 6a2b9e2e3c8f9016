/** The bulk benchmark's server: the SDK's own sandbox, listening on 127.0.0.1 in its own process. */
import { pathToFileURL } from 'node:url';

const { targets } = JSON.parse(process.argv[2]);
const testing = await import(pathToFileURL(targets.testing).href);
if (typeof testing.createSandbox !== 'function') {
  process.send({ missing: '`createSandbox` (delivery-sdk/testing)' });
} else {
  const sandbox = testing.createSandbox();
  const { baseUrl } = await sandbox.listen();
  process.send({ baseUrl, apiKey: sandbox.apiKey });
}
process.on('disconnect', () => process.exit(0));
