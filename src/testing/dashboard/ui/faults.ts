// The Faults view: the faults in place and their counts, and a form that aims one at a route, as
// `sandbox.injectFault` does.
import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import type { faultsView } from '../views.js';
import { change, Refusal, useData } from './data.js';
import { type Merchant, merchantName } from './format.js';

/** The Faults view as the server sends it (src/testing/dashboard/views.ts). */
type FaultsData = ReturnType<typeof faultsView>;

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];

function FaultForm({ kinds, merchants }: { kinds: readonly string[]; merchants: readonly Merchant[] }) {
  const [message, setMessage] = useState<{ text: string; failed: boolean } | undefined>();
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    // A field left empty is left out (JSON drops what is undefined); every matching request is `times: null`, as the control endpoints take it.
    const given = (name: string): string | undefined => String(data.get(name) ?? '').trim() || undefined;
    const count = (name: string): number | undefined => (given(name) === undefined ? undefined : Number(given(name)));
    const route = given('path');
    const rule = {
      kind: given('kind'),
      method: given('method'),
      [data.get('pattern') === 'on' ? 'pathPattern' : 'path']: route,
      merchantId: given('merchantId'),
      nth: count('nth'),
      times: data.get('every') === 'on' ? null : count('times'),
    };
    try {
      const added = await change<{ id: number }>('POST', '/faults', rule);
      setMessage({ text: `Fault ${added.id} injected: ${rule.kind}${route === undefined ? '' : ` on ${route}`}`, failed: false });
    } catch (error) {
      setMessage({ text: error instanceof Refusal ? error.message : String(error), failed: true });
    }
  };
  return html`<form class="panel fault-form" onSubmit=${submit} aria-labelledby="fault-form-title">
    <h2 id="fault-form-title">Inject a fault</h2>
    <div class="form-grid">
      <label for="fault-kind">Kind</label>
      <select id="fault-kind" name="kind">${kinds.map((kind) => html`<option value=${kind}>${kind}</option>`)}</select>
      <label for="fault-method">Method</label>
      <select id="fault-method" name="method"><option value="">Any method</option>${METHODS.map((method) => html`<option value=${method}>${method}</option>`)}</select>
      <label for="fault-path">Route (path under /v2)</label>
      <input id="fault-path" name="path" type="text" placeholder="/deliveries" autocomplete="off" />
      <span></span>
      <span><input id="fault-pattern" name="pattern" type="checkbox" /> <label for="fault-pattern">The route is a regular expression</label></span>
      <label for="fault-merchant">Merchant</label>
      <select id="fault-merchant" name="merchantId"><option value="">Any merchant</option>${merchants.map((merchant) => html`<option value=${merchant.id}>${merchantName(merchants, merchant.id)}</option>`)}</select>
      <label for="fault-nth">First request hit (nth)</label>
      <input id="fault-nth" name="nth" type="number" min="1" value="1" />
      <label for="fault-times">Requests hit (times)</label>
      <input id="fault-times" name="times" type="number" min="1" value="1" />
      <span></span>
      <span><input id="fault-every" name="every" type="checkbox" /> <label for="fault-every">Every matching request</label></span>
    </div>
    <button type="submit" class="primary">Inject fault</button>
    ${message !== undefined && html`<p role=${message.failed ? 'alert' : 'status'} class=${message.failed ? 'error' : 'muted'}>${message.text}</p>`}
  </form>`;
}

export function FaultsView({ merchant, version }: { merchant: string; version: number }) {
  const { data, error } = useData<FaultsData>(`/faults?${new URLSearchParams({ merchant })}`, version);
  const [failure, setFailure] = useState<string | undefined>();
  const act = (method: 'DELETE', path: string) => async (): Promise<void> => {
    try {
      setFailure(undefined);
      await change(method, path);
    } catch (err) {
      setFailure(err instanceof Refusal ? err.message : String(err));
    }
  };
  return html`<section aria-labelledby="faults-title">
    <h1 id="faults-title">Faults</h1>
    ${error !== undefined && html`<p role="alert" class="error">${error.message}</p>`}
    ${failure !== undefined && html`<p role="alert" class="error">${failure}</p>`}
    ${
      data === undefined
        ? html`<p class="muted">Loading…</p>`
        : html`<${FaultForm} kinds=${data.kinds} merchants=${data.merchants} />
        <h2>Faults in place</h2>
        ${
          data.share !== null &&
          html`<p class="panel share">A share of every request is faulted (<code>injectFaults</code>): ${`rate ${data.share.rate}, kinds ${data.share.kinds.join(', ')}, seed ${data.share.seed}; ${data.share.hits} requests bent so far.`}</p>`
        }
        ${
          data.faults.length === 0
            ? html`<p class="muted">No targeted fault in place${data.share === null ? ': every request is answered normally' : ''}.</p>`
            : html`<div class="table-wrap"><table>
              <caption class="visually-hidden">Faults in place, oldest first</caption>
              <thead><tr><th scope="col">Fault</th><th scope="col">Kind</th><th scope="col">Method</th><th scope="col">Route</th><th scope="col">Merchant</th><th scope="col">nth</th><th scope="col">times</th><th scope="col">Matched</th><th scope="col">Hits</th><th scope="col">Action</th></tr></thead>
              <tbody>${data.faults.map(
                (fault) => html`<tr key=${fault.id}>
                  <td>${fault.id}</td><td><code>${fault.kind}</code></td><td>${fault.method ?? 'any'}</td>
                  <td class="url"><code>${fault.path ?? (fault.pathPattern === null ? 'any' : `/${fault.pathPattern}/`)}</code></td>
                  <td>${fault.merchantId === null ? 'any' : merchantName(data.merchants, fault.merchantId)}</td>
                  <td class="number">${fault.nth}</td><td class="number">${fault.times ?? 'every'}</td>
                  <td class="number">${fault.matched}</td><td class="number">${fault.hits}</td>
                  <td><button type="button" aria-label=${`Remove fault ${fault.id}`} onClick=${act('DELETE', `/faults/${fault.id}`)}>Remove</button></td>
                </tr>`,
              )}</tbody>
            </table></div>`
        }
        ${(data.faults.length > 0 || data.share !== null) && html`<p><button type="button" onClick=${act('DELETE', '/faults')}>Clear all faults</button></p>`}`
    }
  </section>`;
}
