import { describe, expect, it } from 'vitest';
import { EXIT, exitCodeOf, firstOf, UsageError } from '../../src/cli/exit.js';
import {
  AuthenticationError,
  BulkCreationError,
  CodLimitExceededError,
  ConfigurationError,
  ConnectionError,
  DeliveryError,
  InvalidRequestError,
  NotFoundError,
  OrderStateError,
  PartialResultError,
  PermissionDeniedError,
  RateLimitError,
  RedirectError,
  RequestAbortedError,
  ResponseShapeError,
  ServerError,
  SubscriptionRequiredError,
  TimeoutError,
  ValidationError,
} from '../../src/index.js';

// The one mapping from what a command ended with to its exit code (docs/cli.md, "Exit codes"):
// by cause, whichever command met it.
const request = { method: 'GET', url: 'http://127.0.0.1:4010/v2/deliveries/business/70000012' };
const answer = (status: number) => ({ status, request });

describe('exit codes by cause', () => {
  it.each([
    ['the service unreachable', new ConnectionError('connect ECONNREFUSED'), EXIT.unreachable],
    ['a timeout', new TimeoutError('timed out'), EXIT.unreachable],
    ['a 5xx', new ServerError('503 Service Unavailable', answer(503)), EXIT.unreachable],
    ['a 429 left after the retries', new RateLimitError('429 Too Many Requests', answer(429)), EXIT.unreachable],
    ["an answer that is not the service's", new ResponseShapeError('200 without a body', answer(200)), EXIT.unreachable],
    ['the key refused', new AuthenticationError('401', answer(401)), EXIT.keyRefused],
    ['the key not allowed', new PermissionDeniedError('403', answer(403)), EXIT.keyRefused],
    ['the subscription lapsed', new SubscriptionRequiredError('8000002', { ...answer(403), errorCode: 8000002 }), EXIT.keyRefused],
    ['a wrong command line', new UsageError('--until: expected ...'), EXIT.usage],
    ['input the SDK refused before sending', new ValidationError([{ path: ['trackingNumber'], message: 'required' }]), EXIT.usage],
    ['a wrong configuration', new ConfigurationError('baseUrl: must end in /v2'), EXIT.usage],
    ['a base URL the service redirects away from', new RedirectError('301', answer(301)), EXIT.usage],
    ['no such order', new NotFoundError('404', answer(404)), EXIT.failed],
    ['the service refusing the request', new InvalidRequestError('400 receiver.phone', answer(400)), EXIT.failed],
    ['a coded refusal of the service', new CodLimitExceededError({ source: 'server', message: 'cod above 30000' }), EXIT.failed],
    [
      "a change the order's state does not allow, as the service answers it",
      new OrderStateError({ trackingNumber: '70000012', state: 45, allowedStates: [10, 20], operation: 'terminate', source: 'server' }),
      EXIT.failed,
    ],
    [
      "a change the order's state does not allow, as the SDK reads it",
      new OrderStateError({ trackingNumber: '70000012', state: 45, allowedStates: [10, 20], operation: 'terminate' }),
      EXIT.failed,
    ],
    [
      'a call that failed part-way, by its cause',
      new PartialResultError('printed 1 of 2 files', { partial: {}, cause: new ServerError('502', answer(502)) }),
      EXIT.unreachable,
    ],
    ['an abort', new RequestAbortedError('aborted'), EXIT.interrupted],
    ['anything else', new DeliveryError('something'), EXIT.failed],
  ])('%s', (_, error, code) => {
    expect(exitCodeOf(error)).toBe(code);
  });

  it('a bulk refusal is the rows it carries: the import counts them, the code follows them', () => {
    expect(exitCodeOf(new BulkCreationError({ source: 'server', message: '1061', result: { created: [], failed: [], createdIds: [] } }))).toBe(EXIT.failed);
  });

  it('orders the codes that apply: a stop first, then the key, the service, usage, refusals', () => {
    expect(firstOf([EXIT.failed, EXIT.unreachable, EXIT.keyRefused])).toBe(EXIT.keyRefused);
    expect(firstOf([EXIT.failed, EXIT.interrupted, EXIT.keyRefused])).toBe(EXIT.interrupted);
    expect(firstOf([])).toBe(EXIT.ok);
  });
});
