// `delivery-sdk orders get|track|cancel|wait TRACKING_NUMBER`: one order, read or changed.
import { type DeliveryRecord, DeliveryState, type DeliveryType, describeState, isFinalState, isKnownState, WebhookOrderType, webhookTypeOf } from '../index.js';
import { durationOf, parseOrUsage } from './args.js';
import { CONNECTION_OPTIONS, connect } from './config.js';
import { EXIT, type ExitCode, UsageError } from './exit.js';
import type { Interrupt } from './interrupt.js';
import { type Io, note, printJson, say } from './output.js';

export const ORDERS_HELP = `delivery-sdk orders: one order by its tracking number, or a file of new ones.

Usage: delivery-sdk orders import FILE [--results FILE] [--dry-run] ...   (delivery-sdk orders import --help)
       delivery-sdk orders get TRACKING_NUMBER      the order: state, type, cod, receiver, address
       delivery-sdk orders track TRACKING_NUMBER    its states so far, oldest first
       delivery-sdk orders cancel TRACKING_NUMBER   cancels it while it is not yet on its way
       delivery-sdk orders wait TRACKING_NUMBER [--until delivered|final|STATE_CODE] [--timeout 30m] [--poll-interval 10s]
             waits until the order is delivered (exit 0), ends in another final state (exit 1),
             or the time runs out (exit 4)
Every command takes --json, and --sandbox or --base-url URL with --api-key-file FILE
(else DELIVERY_BASE_URL and DELIVERY_API_KEY). An unknown order, or one whose state does not allow
the change, exits 1; a service that fails or cannot be reached, 4.`;

/**
 * The order's type as the catalogue names types (`SEND`, `RTO`, ...), from the record's `type`:
 * a numeric code (10), a fulfillment code (`FXF_SEND`), or only its text (`Send`).
 */
function catalogueType(type: DeliveryRecord['type']): string | undefined {
  const code = type?.code;
  if (typeof code === 'number') return webhookTypeOf[code as DeliveryType];
  const text = typeof code === 'string' ? code : type?.value;
  return typeof text === 'string' && text !== '' ? text.toUpperCase().replace(/[\s-]+/g, '_') : undefined;
}

/** A state whose meaning the catalogue gives by order type (41: out for delivery, or out for return). */
const meansByType = (code: number): boolean => new Set(Object.values(WebhookOrderType).map((type) => describeState(code, type).meaning)).size > 1;

/** `41 Picked up: out for delivery`: the state's code and name, and what it means for the order's type when that differs by type. */
function stateText(code: number | undefined, type?: string): string {
  if (code === undefined) return 'unknown state';
  const described = describeState(code, type);
  if (!described.known) return `state ${code}`;
  if (type === undefined || !meansByType(code)) return `${code} ${described.name}`;
  return `${code} ${described.name}: ${described.meaning.charAt(0).toLowerCase()}${described.meaning.slice(1)}`;
}

function orderLines(order: DeliveryRecord): string[] {
  const receiver = order.receiver;
  const address = order.dropOffAddress ?? order.pickupAddress;
  const place = [address?.firstLine, address?.district?.name, address?.city?.name].filter((part) => part !== undefined && part !== '').join(', ');
  return [
    `${order.trackingNumber}: ${stateText(order.state?.code, catalogueType(order.type))}`,
    ...(order.type?.code === undefined ? [] : [`  type: ${order.type.code}${order.type.value === undefined ? '' : ` (${order.type.value})`}`]),
    ...(order.cod === undefined ? [] : [`  cod: ${order.cod} EGP`]),
    ...(order.businessReference === undefined ? [] : [`  businessReference: ${order.businessReference}`]),
    ...(receiver === undefined
      ? []
      : [`  receiver: ${[receiver.fullName ?? [receiver.firstName, receiver.lastName].filter(Boolean).join(' '), receiver.phone].filter(Boolean).join(', ')}`]),
    ...(place === '' ? [] : [`  address: ${place}`]),
    ...(order.createdAt === undefined ? [] : [`  created: ${order.createdAt}`]),
  ];
}

/** `until`: delivered (45), final (any final state) or a state code. */
function targetOf(text: string): { describe: string; reached: (state: number) => boolean } {
  if (text === 'delivered') return { describe: 'delivered', reached: (state) => state === DeliveryState.Delivered };
  if (text === 'final') return { describe: 'a final state', reached: isFinalState };
  const code = Number(text);
  if (/^\d+$/.test(text) && isKnownState(code)) return { describe: stateText(code), reached: (state) => state === code };
  throw new UsageError(
    `--until: expected delivered, final or a state code of the catalogue (45; the table in docs/webhooks.md), received '${text}'${/^\d+$/.test(text) ? ': no such state' : ''}`,
  );
}

export async function ordersCommand(action: string, args: readonly string[], io: Io, interrupt: Interrupt): Promise<ExitCode> {
  const { values, positionals } = parseOrUsage({
    args: [...args],
    allowPositionals: true,
    options: {
      ...CONNECTION_OPTIONS,
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      ...(action === 'wait'
        ? { until: { type: 'string', default: 'delivered' }, timeout: { type: 'string', default: '30m' }, 'poll-interval': { type: 'string', default: '10s' } }
        : {}),
    },
  });
  if (values.help === true) return (say(io, ORDERS_HELP), EXIT.ok);
  const [trackingNumber, ...extra] = positionals;
  if (trackingNumber === undefined || extra.length > 0) throw new UsageError(`orders ${action} takes one tracking number`);
  const wait = action === 'wait' ? waitOptions(values as Record<string, string>) : undefined;
  const { client, close } = await connect(values);
  const signal = interrupt.signal;
  try {
    switch (action) {
      case 'get': {
        const order = await client.deliveries.get(trackingNumber, { signal });
        if (io.json) printJson(io, order);
        else for (const line of orderLines(order)) say(io, line);
        return EXIT.ok;
      }
      case 'track': {
        const tracking = await client.deliveries.track(trackingNumber, { signal });
        if (io.json) printJson(io, tracking);
        else {
          // The tracking carries no order type: the order is read for it when a state means something else by type.
          const codes = [tracking.currentState?.code, ...tracking.history.map((event) => event.code)];
          const needsType = codes.some((code) => code !== undefined && isKnownState(code) && meansByType(code));
          const type = needsType ? catalogueType((await client.deliveries.get(trackingNumber, { signal })).type) : undefined;
          say(
            io,
            `${tracking.trackingNumber}: ${stateText(tracking.currentState?.code, type)}${tracking.promisedDate === undefined ? '' : `, promised for ${tracking.promisedDate}`}`,
          );
          for (const event of tracking.history) say(io, `  ${event.timestamp ?? '?'}  ${stateText(event.code, type)}`);
        }
        return EXIT.ok;
      }
      case 'cancel': {
        const result = await client.deliveries.terminate(trackingNumber, { signal });
        if (io.json) printJson(io, { trackingNumber, cancelled: true, result });
        else say(io, `Cancelled ${trackingNumber}.`);
        return EXIT.ok;
      }
      default: {
        if (wait === undefined) throw new UsageError(`orders: unknown action '${action}'`);
        const { target, totalTimeout, pollInterval } = wait;
        let last: number | undefined;
        const order = await client.deliveries.waitForState(trackingNumber, {
          until: (state, read) => {
            if (state !== last) note(io, `${trackingNumber}: ${stateText(state, catalogueType(read.type))}`);
            last = state;
            return target.reached(state) || isFinalState(state);
          },
          totalTimeout,
          pollInterval,
          maxPollInterval: Math.max(pollInterval, 60_000),
          signal,
        });
        const state = order.state?.code;
        const type = catalogueType(order.type);
        const reached = state !== undefined && target.reached(state);
        if (io.json) printJson(io, { trackingNumber, reached, until: target.describe, state: order.state, order });
        else
          say(
            io,
            reached
              ? `${trackingNumber} reached ${target.describe}: ${stateText(state, type)}.`
              : `${trackingNumber} ended in ${stateText(state, type)} without reaching ${target.describe}.`,
          );
        return reached ? EXIT.ok : EXIT.failed;
      }
    }
  } finally {
    await close();
  }
}

function waitOptions(values: Record<string, string>) {
  const totalTimeout = durationOf('--timeout', values['timeout'] ?? '30m');
  const pollInterval = durationOf('--poll-interval', values['poll-interval'] ?? '10s');
  if (totalTimeout < 1) throw new UsageError('--timeout: expected more than 0');
  return { target: targetOf(values['until'] ?? 'delivered'), totalTimeout, pollInterval };
}
