// The Webhooks view: every delivery and its attempts, and a button that sends one again.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import type { webhooksView } from '../views.js';
import { change, Refusal, useData } from './data.js';
import { type Merchant, merchantName, orderLink, pretty, time } from './format.js';

/** A webhook delivery as the server sends it (src/testing/dashboard/views.ts). */
export type Delivery = ReturnType<typeof webhooksView>['deliveries'][number];

function Resend({ id }: { id: number }) {
  const [state, setState] = useState<{ busy: boolean; message?: string }>({ busy: false });
  const resend = async (): Promise<void> => {
    setState({ busy: true });
    try {
      const sent = await change<{ id: number; status: string }>('POST', `/webhooks/${id}/resend`);
      setState({ busy: false, message: `Sent again as delivery ${sent.id}: ${sent.status}` });
    } catch (error) {
      setState({ busy: false, message: error instanceof Refusal ? error.message : String(error) });
    }
  };
  return html`<button type="button" disabled=${state.busy} aria-label=${`Resend delivery ${id}`} onClick=${resend}>Resend</button>
    ${state.message !== undefined && html`<span role="status" class="muted"> ${state.message}</span>`}`;
}

/** Deliveries as a table, wherever they are shown (this view, an order's page). */
export function Deliveries({ deliveries, merchants, label }: { deliveries: readonly Delivery[]; merchants: readonly Merchant[]; label: string }) {
  return html`<div class="table-wrap"><table>
    <caption class="visually-hidden">${label}</caption>
    <thead><tr><th scope="col">Delivery</th><th scope="col">Tracking number</th><th scope="col">Merchant</th><th scope="col">State</th><th scope="col">URL</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Body</th><th scope="col">Action</th></tr></thead>
    <tbody>
      ${deliveries.map(
        (delivery) => html`<tr key=${delivery.id} class=${delivery.status === 'failed' ? 'refused' : ''}>
          <td>${delivery.id}${delivery.resendOf !== null && html`<div class="muted">resend of ${delivery.resendOf}</div>`}</td>
          <td>${orderLink(delivery.trackingNumber)}</td>
          <td>${merchantName(merchants, delivery.merchantId)}</td>
          <td>${delivery.stateLabel} <span class="muted">(${delivery.state})</span></td>
          <td class="url">${delivery.url}</td>
          <td><span class=${`badge ${delivery.status}`}>${delivery.status}</span></td>
          <td><ol class="attempts">
            ${delivery.attempts.map(
              (attempt) =>
                html`<li><strong>${attempt.status === null ? 'no answer' : `HTTP ${attempt.status}`}</strong> <span class="muted">${time(attempt.at)}</span>${attempt.error !== null && attempt.status === null ? html`<div class="muted">${attempt.error}</div>` : null}</li>`,
            )}
          </ol></td>
          <td><details><summary>Body</summary><pre>${pretty(delivery.body)}</pre></details></td>
          <td><${Resend} id=${delivery.id} /></td>
        </tr>`,
      )}
    </tbody>
  </table></div>`;
}

export function WebhooksView({ merchant, version }: { merchant: string; version: number }) {
  const { data, error } = useData<ReturnType<typeof webhooksView>>(`/webhooks?${new URLSearchParams({ merchant })}`, version);
  return html`<section aria-labelledby="webhooks-title">
    <h1 id="webhooks-title">Webhooks</h1>
    ${error !== undefined && html`<p role="alert" class="error">${error.message}</p>`}
    ${
      data === undefined
        ? html`<p class="muted">Loading…</p>`
        : data.deliveries.length === 0
          ? html`<p class="muted">No webhook sent yet: orders with a <code>webhookUrl</code>, or a merchant's account webhook, get one at each state change.</p>`
          : html`<p class="muted">${data.deliveries.length} deliveries, newest first (the sandbox keeps the last ${data.capacity.toLocaleString('en-US')}).</p>
            <${Deliveries} deliveries=${data.deliveries} merchants=${data.merchants} label="Webhook deliveries, newest first" />`
    }
  </section>`;
}
