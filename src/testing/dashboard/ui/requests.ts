// The Requests view: every API request, the refused ones standing out, each body to open.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import type { requestsView } from '../views.js';
import { Refusal, read, useData } from './data.js';
import { merchantName, pretty, time } from './format.js';

/** A row of the Requests view, as the server sends it (src/testing/dashboard/views.ts). */
type RequestRow = ReturnType<typeof requestsView>['requests'][number];

const isRefused = (request: RequestRow): boolean => request.status === undefined || request.status >= 400;

function Body({ id }: { id: number }) {
  const [body, setBody] = useState<{ open: boolean; text?: string }>({ open: false });
  const toggle = async (): Promise<void> => {
    if (body.open) return setBody({ open: false });
    setBody({ open: true, text: 'Loading…' });
    try {
      const request = await read<{ body: unknown }>(`/requests/${id}`);
      setBody({ open: true, text: request.body === null ? 'No body.' : pretty(request.body) });
    } catch (error) {
      setBody({ open: true, text: error instanceof Refusal ? error.message : String(error) });
    }
  };
  return html`<button type="button" aria-expanded=${body.open} aria-controls=${`body-${id}`} onClick=${toggle}>${body.open ? 'Hide body' : 'Show body'}</button>
    ${body.open && html`<pre id=${`body-${id}`} class="body">${body.text}</pre>`}`;
}

function status(request: RequestRow) {
  if (request.status === undefined) return html`<span class="badge failed">dropped</span>`;
  return isRefused(request) ? html`<span class="badge failed">${request.status} refused</span>` : html`<span class="badge delivered">${request.status}</span>`;
}

export function RequestsView({ merchant, version }: { merchant: string; version: number }) {
  const [refusedOnly, setRefusedOnly] = useState(false);
  const query = new URLSearchParams({ merchant, refused: refusedOnly ? '1' : '' });
  const { data, error } = useData<ReturnType<typeof requestsView>>(`/requests?${query}`, version);
  return html`<section aria-labelledby="requests-title">
    <h1 id="requests-title">Requests</h1>
    ${error !== undefined && html`<p role="alert" class="error">${error.message}</p>`}
    <p class="toolbar"><input id="refused-only" type="checkbox" checked=${refusedOnly} onChange=${(event: Event) => setRefusedOnly((event.target as HTMLInputElement).checked)} />
      <label for="refused-only">Refused requests only</label></p>
    ${
      data === undefined
        ? html`<p class="muted">Loading…</p>`
        : html`<p class="muted">${data.requests.length} requests, newest first (the sandbox keeps the last ${data.capacity.toLocaleString('en-US')}).</p>
        <div class="table-wrap"><table>
          <caption class="visually-hidden">API requests, newest first</caption>
          <thead><tr><th scope="col">Time</th><th scope="col">Merchant</th><th scope="col">Method</th><th scope="col">Route</th><th scope="col">Status</th><th scope="col">errorCode</th><th scope="col">Duration</th><th scope="col">Body</th></tr></thead>
          <tbody>
            ${data.requests.map(
              (request) => html`<tr key=${request.id} class=${isRefused(request) ? 'refused' : ''}>
                <td>${time(request.at)}</td>
                <td>${merchantName(data.merchants, request.merchantId)}</td>
                <td><code>${request.method}</code></td>
                <td class="url"><code>${request.path}${request.query}</code>
                  ${request.message !== undefined && html`<div class="muted">${request.message}</div>`}
                  ${request.fault !== undefined && html`<div class="fault">Injected fault: ${request.fault}</div>`}</td>
                <td>${status(request)}</td>
                <td class="number">${request.errorCode ?? '—'}</td>
                <td class="number">${request.durationMs} ms</td>
                <td>${request.hasBody ? html`<${Body} id=${request.id} />` : html`<span class="muted">none</span>`}</td>
              </tr>`,
            )}
          </tbody>
        </table></div>`
    }
  </section>`;
}
