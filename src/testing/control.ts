import { constantTimeEqual } from '../internal/guards.js';
import { SandboxError } from './errors.js';
import { type FaultOptions, faultRuleOf, type InjectedFault } from './faults.js';
import type { ScenarioName } from './flows.js';
import { isLoopbackAddress, isLoopbackHostHeader, isLoopbackOrigin } from './network.js';
import type { Sandbox, SandboxMerchant, SandboxMerchantOptions, SandboxWebhookConfig } from './sandbox-api.js';
import { CONTROL_PREFIX, CONTROL_TOKEN_HEADER, decodePathSegment, errorResponse, isRecord, notFound, ok, type Peer, RuleViolation, readJson } from './wire.js';

/** Path prefix of the control endpoints a `listen()` server adds, for tests in other processes or languages. */

/** Whether `request` carries `token`, compared in constant time: any local user can try guesses. */
function hasControlToken(request: Request, token: string): boolean {
  const encoder = new TextEncoder();
  return constantTimeEqual(encoder.encode(request.headers.get(CONTROL_TOKEN_HEADER) ?? ''), encoder.encode(token));
}

async function body(request: Request): Promise<Record<string, unknown>> {
  const value = await readJson(request);
  if (!isRecord(value)) throw new SandboxError('The body must be a JSON object');
  return value;
}

/**
 * Whether a control request comes from this machine: a loopback peer (by the socket, which no
 * header can forge), a loopback `Host` (a DNS-rebinding page sends its own name), and, when a
 * browser names one, a loopback `Origin` (a cross-site form or `no-cors` fetch is still sent).
 */
export function isControlPeerAllowed(peer: Peer): boolean {
  return (
    peer.remoteAddress !== undefined &&
    isLoopbackAddress(peer.remoteAddress) &&
    isLoopbackHostHeader(peer.host) &&
    (peer.origin === undefined || isLoopbackOrigin(peer.origin))
  );
}

/**
 * A control request over a `listen()` server: 403 unless {@link isControlPeerAllowed}, and never
 * a CORS header (no preflight passes either), so no web page can read one-time codes or steer
 * the sandbox, whatever interface it is bound to.
 */
export async function answerControl(sandbox: Sandbox, request: Request, peer: Peer): Promise<Response> {
  const response = !isControlPeerAllowed(peer)
    ? errorResponse(403, 'Forbidden: the sandbox control endpoints answer requests from this machine only (loopback peer, Host and Origin)')
    : !hasControlToken(request, sandbox.controlToken)
      ? errorResponse(401, `Unauthorized: the sandbox control endpoints need the token listen() returned, in the header ${CONTROL_TOKEN_HEADER}`)
      : await control(sandbox, request);
  for (const name of [...response.headers.keys()]) {
    if (name.startsWith('access-control-')) response.headers.delete(name);
  }
  return response;
}

/**
 * The sandbox's own methods over HTTP (no API key; only this machine, see {@link answerControl}):
 * `GET otp?phone=`, `GET email-token?email=`, `GET orders`, `GET orders/<tn>`,
 * `POST orders/<tn>/advance {to, exceptionCode?}`, `POST orders/<tn>/play {scenario}`,
 * `PUT webhook {url, headerName?, headerValue?}`, `DELETE webhook`, `GET webhooks`,
 * `POST webhooks/<id>/resend`, `GET requests` (the request log),
 * `POST faults {rate, kinds, seed?, slowMs?}` or, for one request,
 * `POST faults {kind, method?, path? | pathPattern?, apiKey?, nth?, times?}`, `GET faults` (the
 * targeted ones and their counts), `DELETE faults`; the merchants:
 * `POST merchants {apiKey?, businessName?, pickupLocation?, webhook?}` (a ready merchant, as
 * `createMerchant`), `GET merchants`, `GET merchants/<id>/orders`, `PUT|DELETE merchants/<id>/webhook`.
 */
async function control(sandbox: Sandbox, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.slice(url.pathname.indexOf(CONTROL_PREFIX) + CONTROL_PREFIX.length).replace(/\/+$/, '');
  const key = `${request.method} ${path
    .replace(/^\/orders\/[^/]+/, '/orders/:tn')
    .replace(/^\/merchants\/[^/]+/, '/merchants/:id')
    .replace(/^\/webhooks\/\d+\//, '/webhooks/:id/')}`;
  try {
    const trackingNumber = decodePathSegment(/^\/orders\/([^/]+)/.exec(path)?.[1] ?? '');
    const merchant = (): SandboxMerchant => merchantById(sandbox, decodePathSegment(/^\/merchants\/([^/]+)/.exec(path)?.[1] ?? ''));
    switch (key) {
      case 'GET /otp':
        return ok({ phone: url.searchParams.get('phone'), otp: sandbox.lastOtp(url.searchParams.get('phone') ?? '') ?? null });
      case 'GET /email-token':
        return ok({ email: url.searchParams.get('email'), token: sandbox.lastEmailToken(url.searchParams.get('email') ?? '') ?? null });
      case 'GET /orders':
        return ok(sandbox.orders());
      case 'GET /orders/:tn':
        return ok({ ...sandbox.order(trackingNumber), nextStates: sandbox.nextStates(trackingNumber) });
      case 'POST /orders/:tn/advance': {
        const { to, exceptionCode } = await body(request);
        if (typeof to !== 'number') throw new SandboxError('advance: `to` must be a state code');
        if (exceptionCode === undefined) return ok(await sandbox.advance(trackingNumber, { to }));
        if (typeof exceptionCode !== 'number') throw new SandboxError('advance: `exceptionCode` must be an exception reason code (a number)');
        return ok(await sandbox.advance(trackingNumber, { to, exceptionCode }));
      }
      case 'POST /orders/:tn/play':
        return ok(await sandbox.play(trackingNumber, (await body(request))['scenario'] as ScenarioName));
      case 'PUT /webhook':
        sandbox.setWebhook((await body(request)) as unknown as SandboxWebhookConfig);
        return ok(null);
      case 'DELETE /webhook':
        sandbox.setWebhook(null);
        return ok(null);
      case 'GET /webhooks':
        return ok(sandbox.webhookLog());
      case 'POST /webhooks/:id/resend':
        return ok(await sandbox.resendWebhook(Number(/^\/webhooks\/(\d+)/.exec(path)?.[1])));
      case 'GET /requests':
        return ok(sandbox.requestLog());
      case 'POST /faults': {
        const fields = await body(request);
        if (fields['kind'] === undefined) {
          sandbox.injectFaults(fields as unknown as FaultOptions);
          return ok(null);
        }
        return ok(faultView(sandbox.injectFault(faultRuleOf(fields))), 201, 'Fault injected');
      }
      case 'GET /faults':
        return ok(sandbox.injectedFaults().map(faultView));
      case 'DELETE /faults':
        sandbox.clearFaults();
        return ok(null);
      case 'POST /merchants':
        return ok(merchantView(sandbox.createMerchant((await body(request)) as SandboxMerchantOptions)), 201, 'Merchant created');
      case 'GET /merchants':
        return ok(sandbox.merchants().map(merchantView));
      case 'GET /merchants/:id/orders':
        return ok(merchant().orders());
      case 'PUT /merchants/:id/webhook':
        merchant().setWebhook((await body(request)) as unknown as SandboxWebhookConfig);
        return ok(null);
      case 'DELETE /merchants/:id/webhook':
        merchant().setWebhook(null);
        return ok(null);
      default:
        return errorResponse(404, `Not Found: ${request.method} ${url.pathname}`);
    }
  } catch (err) {
    if (err instanceof SandboxError) return errorResponse(400, err.message);
    if (err instanceof RuleViolation) return err.toResponse();
    throw err;
  }
}

/** A targeted fault as JSON: a RegExp path as `pathPattern`, an endless `times` as null. */
function faultView(fault: InjectedFault) {
  const path = fault.path instanceof RegExp ? { pathPattern: fault.path.source } : { path: fault.path ?? null };
  return {
    kind: fault.kind,
    method: fault.method ?? null,
    ...path,
    nth: fault.nth,
    times: Number.isFinite(fault.times) ? fault.times : null,
    matched: fault.matched,
    hits: fault.hits,
  };
}

/** What the control endpoints answer for a merchant: its ids and key (its methods are the endpoints under `/merchants/<id>/`). */
function merchantView(merchant: SandboxMerchant) {
  return { id: merchant.id, apiKey: merchant.apiKey, businessId: merchant.businessId, pickupLocationId: merchant.pickupLocationId };
}

function merchantById(sandbox: Sandbox, id: string): SandboxMerchant {
  const merchant = sandbox.merchants().find((candidate) => candidate.id === id);
  if (merchant === undefined) throw notFound(`No merchant '${id}' in this sandbox (POST /__sandbox/merchants makes one)`);
  return merchant;
}
