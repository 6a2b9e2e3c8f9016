// The sandbox's dashboard: a page of its own origin, served by the sandbox server only. The views
// are addressed by the fragment (#/orders, #/orders/<trackingNumber>, #/requests, #/webhooks,
// #/faults), so an order's page opens in the same tab and the back button works.
import './style.css';
import { html } from 'htm/preact';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { type Connection, signOut, useData, useLive } from './data.js';
import { FaultsView } from './faults.js';
import type { Merchant } from './format.js';
import { OrderPage, OrdersView } from './orders.js';
import { RequestsView } from './requests.js';
import { WebhooksView } from './webhooks.js';

const VIEWS = ['Orders', 'Requests', 'Webhooks', 'Faults'] as const;
type View = (typeof VIEWS)[number];

interface Place {
  readonly view: View;
  readonly trackingNumber?: string;
}

function placeOf(hash: string): Place {
  const [first = '', second] = hash.replace(/^#\/?/, '').split('/');
  const view = VIEWS.find((name) => name.toLowerCase() === first.toLowerCase()) ?? 'Orders';
  return view === 'Orders' && second !== undefined && second !== '' ? { view, trackingNumber: decodeURIComponent(second) } : { view };
}

function usePlace(): Place {
  const [place, setPlace] = useState(() => placeOf(location.hash));
  useEffect(() => {
    const moved = (): void => setPlace(placeOf(location.hash));
    addEventListener('hashchange', moved);
    return () => removeEventListener('hashchange', moved);
  }, []);
  return place;
}

const CONNECTION_TEXT: Readonly<Record<Connection, string>> = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…' };

function App() {
  const place = usePlace();
  const { version, connection } = useLive();
  const [merchant, setMerchant] = useState('');
  const merchants = useData<{ merchants: Merchant[] }>('/orders?limit=1', version);
  if (merchants.error?.status === 401) {
    return html`<main class="signin"><h1>Delivery sandbox</h1><p role="alert">This browser is signed out. Open the dashboard URL the sandbox gave to sign in again.</p></main>`;
  }
  const props = { merchant, version };
  return html`<header class="top">
      <p class="brand">Delivery sandbox</p>
      <nav aria-label="Views"><ul>
        ${VIEWS.map((view) => html`<li><a href=${`#/${view.toLowerCase()}`} aria-current=${place.view === view ? 'page' : undefined}>${view}</a></li>`)}
      </ul></nav>
      <p class="merchant-filter"><label for="merchant-filter">Merchant</label>
        <select id="merchant-filter" value=${merchant} onChange=${(event: Event) => setMerchant((event.target as HTMLSelectElement).value)}>
          <option value="">Every merchant</option>
          ${(merchants.data?.merchants ?? []).map((one) => html`<option value=${one.id}>${one.name} (${one.id})</option>`)}
        </select></p>
      <p class=${`connection ${connection}`} role="status">${CONNECTION_TEXT[connection]}</p>
      <button type="button" class="quiet" onClick=${() => signOut().then(() => location.reload())}>Sign out</button>
    </header>
    <main>
      ${
        place.trackingNumber !== undefined
          ? html`<${OrderPage} trackingNumber=${place.trackingNumber} version=${version} />`
          : place.view === 'Orders'
            ? html`<${OrdersView} ...${props} />`
            : place.view === 'Requests'
              ? html`<${RequestsView} ...${props} />`
              : place.view === 'Webhooks'
                ? html`<${WebhooksView} ...${props} />`
                : html`<${FaultsView} ...${props} />`
      }
    </main>`;
}

const root = document.getElementById('app');
if (root !== null) render(html`<${App} />`, root);
