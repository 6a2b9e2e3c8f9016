// The Orders view (every order, a search, a chart of orders by state) and an order's page (as
// sent, its timeline, its webhooks, and a button per state its flow allows next).
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import type { ordersView, orderView } from '../views.js';
import { change, Refusal, useData } from './data.js';
import { fields, merchantName, money, orderLink, pretty, time } from './format.js';
import { Deliveries } from './webhooks.js';

/** The Orders view and an order's page as the server sends them (src/testing/dashboard/views.ts). */
type OrdersData = ReturnType<typeof ordersView>;
type OrderData = ReturnType<typeof orderView>;

/** Orders by state, as horizontal bars: an SVG with its own title and a text alternative. */
function StateChart({ byState }: { byState: OrdersData['byState'] }) {
  if (byState.length === 0) return null;
  const most = Math.max(...byState.map((row) => row.count));
  const rowHeight = 26;
  const height = byState.length * rowHeight + 8;
  const summary = byState.map((row) => `${row.name}: ${row.count}`).join(', ');
  return html`<figure class="chart">
    <figcaption id="chart-title">Orders by state</figcaption>
    <svg viewBox=${`0 0 640 ${height}`} width="100%" height=${height} role="img" aria-labelledby="chart-title" aria-describedby="chart-summary">
      ${byState.map(
        (row, i) => html`<g transform=${`translate(0 ${i * rowHeight + 4})`}>
          <text x="230" y="17" text-anchor="end" class="chart-label">${row.name} (${row.state})</text>
          <rect x="240" y="3" height="18" rx="3" width=${Math.max(2, (row.count / most) * 340)} class="chart-bar"></rect>
          <text x=${248 + (row.count / most) * 340} y="17" class="chart-count">${row.count}</text>
        </g>`,
      )}
    </svg>
    <p id="chart-summary" class="visually-hidden">${summary}</p>
  </figure>`;
}

export function OrdersView({ merchant, version }: { merchant: string; version: number }) {
  const [search, setSearch] = useState('');
  const [limit, setLimit] = useState(100);
  const query = new URLSearchParams({ merchant, q: search, limit: String(limit) });
  const { data, error } = useData<OrdersData>(`/orders?${query}`, version);
  return html`<section aria-labelledby="orders-title">
    <h1 id="orders-title">Orders</h1>
    ${error !== undefined && html`<p role="alert" class="error">${error.message}</p>`}
    ${data !== undefined && html`<${StateChart} byState=${data.byState} />`}
    <form class="toolbar" role="search" onSubmit=${(event: Event) => event.preventDefault()}>
      <label for="order-search">Search by tracking number, business reference or phone</label>
      <input id="order-search" type="search" value=${search} onInput=${(event: Event) => setSearch((event.target as HTMLInputElement).value)} />
    </form>
    ${
      data === undefined
        ? html`<p class="muted">Loading…</p>`
        : html`<p class="muted" aria-live="polite">${search === '' ? `${data.total} orders` : `${data.found} of ${data.total} orders match`}</p>
        <div class="table-wrap"><table>
          <caption class="visually-hidden">Orders, newest first</caption>
          <thead><tr><th scope="col">Tracking number</th><th scope="col">Merchant</th><th scope="col">Type</th><th scope="col">State</th><th scope="col">COD</th><th scope="col">Business reference</th><th scope="col">Created</th></tr></thead>
          <tbody>
            ${data.orders.map(
              (order) => html`<tr key=${order.trackingNumber}>
                <td>${orderLink(order.trackingNumber)}</td>
                <td>${merchantName(data.merchants, order.merchantId)}</td>
                <td>${order.type}</td>
                <td><span class="state">${order.stateLabel}</span> <span class="muted">(${order.state})</span></td>
                <td class="number">${money(order.cod)}</td>
                <td>${order.businessReference ?? '—'}</td>
                <td>${time(order.createdAt)}</td>
              </tr>`,
            )}
          </tbody>
        </table></div>
        ${data.found > data.orders.length && html`<button type="button" onClick=${() => setLimit(limit * 5)}>Show more orders (${data.orders.length} of ${data.found} shown)</button>`}`
    }
  </section>`;
}

const ADDRESS_TITLES: Readonly<Record<string, string>> = {
  dropOffAddress: 'Drop-off address',
  pickupAddress: 'Pickup address',
  returnAddress: 'Return address',
};

function NextStates({ order }: { order: OrderData }) {
  const [reason, setReason] = useState<string>('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();
  const advance = async (to: number): Promise<void> => {
    setBusy(true);
    setFailure(undefined);
    try {
      const exceptionCode = to === 47 && reason !== '' ? Number(reason) : undefined;
      await change('POST', `/orders/${encodeURIComponent(order.trackingNumber)}/advance`, exceptionCode === undefined ? { to } : { to, exceptionCode });
    } catch (error) {
      setFailure(error instanceof Refusal ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return html`<section aria-labelledby="next-title" class="panel">
    <h2 id="next-title">Move to the next state</h2>
    ${
      order.next.length === 0
        ? html`<p class="muted">Nothing follows ${order.stateLabel} in this order's flow.</p>`
        : html`<p class="muted">Each button moves the order as <code>sandbox.advance</code> does, and sends its webhooks.</p>
          <div class="buttons">
            ${order.next.map(
              (next) =>
                html`<button type="button" class="primary" disabled=${busy} title=${next.label} onClick=${() => advance(next.state)}>${next.name}</button>`,
            )}
          </div>
          ${
            order.exceptionReasons.length > 0 &&
            html`<p class="inline-field"><label for="exception-reason">Exception reason</label>
              <select id="exception-reason" value=${reason} onChange=${(event: Event) => setReason((event.target as HTMLSelectElement).value)}>
                <option value="">The flow's default</option>
                ${order.exceptionReasons.map((option) => html`<option value=${String(option.code)}>${option.code}: ${option.reason}</option>`)}
              </select></p>`
          }`
    }
    ${failure !== undefined && html`<p role="alert" class="error">${failure}</p>`}
  </section>`;
}

export function OrderPage({ trackingNumber, version }: { trackingNumber: string; version: number }) {
  const { data, error } = useData<OrderData>(`/orders/${encodeURIComponent(trackingNumber)}`, version);
  if (data === undefined)
    return html`<section><h1>Order ${trackingNumber}</h1>${error === undefined ? html`<p class="muted">Loading…</p>` : html`<p role="alert" class="error">${error.message}</p>`}</section>`;
  return html`<section aria-labelledby="order-title">
    <p><a href="#/orders">← All orders</a></p>
    <h1 id="order-title">Order ${data.trackingNumber}</h1>
    <dl class="summary">
      <dt>State</dt><dd><span class="state">${data.stateLabel}</span> (${data.state})</dd>
      <dt>Merchant</dt><dd>${merchantName(data.merchants, data.merchantId)}</dd>
      <dt>Type</dt><dd>${data.type}</dd>
      <dt>COD</dt><dd>${money(data.cod)}</dd>
      <dt>Business reference</dt><dd>${data.businessReference ?? '—'}</dd>
      <dt>Created</dt><dd>${time(data.createdAt)}</dd>
    </dl>
    <${NextStates} order=${data} />
    <div class="columns">
      <section aria-labelledby="receiver-title" class="panel"><h2 id="receiver-title">Receiver, as sent</h2>${fields(data.receiver)}</section>
      ${Object.entries(data.addresses).map(
        ([name, address]) =>
          html`<section aria-labelledby=${`${name}-title`} class="panel"><h2 id=${`${name}-title`}>${ADDRESS_TITLES[name] ?? name}, as sent</h2>${fields(address)}</section>`,
      )}
    </div>
    <section aria-labelledby="timeline-title">
      <h2 id="timeline-title">Timeline</h2>
      <ol class="timeline">
        ${data.history.map(
          (event) => html`<li>
            <time>${time(event.timeStamp)}</time> <span class="state">${event.stateLabel}</span> <span class="muted">(${event.state}; attempts ${event.numberOfAttempts})</span>
            ${event.exceptionCode !== null && html`<div class="exception">Exception ${event.exceptionCode}: ${event.exceptionReason}</div>`}
          </li>`,
        )}
      </ol>
    </section>
    <section aria-labelledby="order-webhooks-title">
      <h2 id="order-webhooks-title">Webhook deliveries</h2>
      ${data.webhooks.length === 0 ? html`<p class="muted">No webhook sent for this order (no webhookUrl, no account webhook).</p>` : html`<${Deliveries} deliveries=${data.webhooks} merchants=${data.merchants} label="Webhook deliveries of this order" />`}
    </section>
    <details><summary>The order as sent (secrets masked)</summary><pre>${pretty(data.sent)}</pre></details>
  </section>`;
}
