// `delivery-sdk history PHONE`: a customer's delivery record, for the cash-on-delivery risk.
import { parseOrUsage } from './args.js';
import { CONNECTION_OPTIONS, connect } from './config.js';
import { EXIT, type ExitCode, UsageError } from './exit.js';
import type { Interrupt } from './interrupt.js';
import { type Io, printJson, say } from './output.js';

export const HISTORY_HELP = `delivery-sdk history PHONE: a customer's orders by phone (any spelling: 01..., +201..., Arabic digits).

Usage: delivery-sdk history PHONE [--json]
Prints how many were delivered, returned and are still on their way, and the delivery rate.`;

export async function historyCommand(args: readonly string[], io: Io, interrupt: Interrupt): Promise<ExitCode> {
  const { values, positionals } = parseOrUsage({
    args: [...args],
    allowPositionals: true,
    options: { ...CONNECTION_OPTIONS, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help === true) return (say(io, HISTORY_HELP), EXIT.ok);
  const [phone, ...extra] = positionals;
  if (phone === undefined || extra.length > 0) throw new UsageError('history takes one phone number');
  const { client, close } = await connect(values);
  try {
    const history = await client.deliveries.customerHistory(phone, { signal: interrupt.signal });
    if (io.json) printJson(io, { phone, ...history });
    else {
      const rate = history.rate === undefined ? 'no delivery rate yet' : `delivery rate ${Math.round(history.rate * 100)}%`;
      say(
        io,
        `${phone}: ${history.total} ${history.total === 1 ? 'order' : 'orders'}: ${history.delivered} delivered, ${history.returned} returned, ${history.pending} on their way; ${rate}.`,
      );
    }
    return EXIT.ok;
  } finally {
    await close();
  }
}
