import { SandboxError } from './errors.js';

/**
 * Which addresses stay on this machine, and which reach into its network: what the sandbox server
 * decides on before it answers a control request, binds an interface, or sends a webhook.
 */

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (`::ffff:127.0.0.1`, as Node reports a peer). */
export function isLoopbackAddress(address: string): boolean {
  const ip = unbracket(address);
  if (ip === '::1' || ip === '0:0:0:0:0:0:0:1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ip.startsWith('::ffff:') ? ip.slice('::ffff:'.length) : ip) || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(ip);
}

/** `localhost`, a name under `.localhost` (which resolves to loopback only), or a loopback address. */
export function isLoopbackName(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return name === 'localhost' || name.endsWith('.localhost') || isLoopbackAddress(name);
}

/**
 * The name in a `Host` header (`localhost:4010`, `[::1]:4010`), when it is a loopback one. A
 * missing, empty or malformed header is not: DNS rebinding sends the attacker's own name here.
 */
export function isLoopbackHostHeader(host: string | undefined): boolean {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^\s:[\]]+)(?::\d{1,5})?$/.exec(host ?? '');
  return match?.[1] !== undefined && isLoopbackName(match[1]);
}

/** An `Origin` header naming a page served from this machine (http or https, loopback name). */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackName(url.hostname);
  } catch {
    return false;
  }
}

/**
 * 169.254.0.0/16 and fe80::/10 (IPv4-mapped too), as the URL parser writes a hostname: where
 * cloud metadata services (169.254.169.254) and a host's link-local neighbours answer.
 */
export function isLinkLocalHostname(hostname: string): boolean {
  const ip = unbracket(hostname);
  return /^169\.254\.\d{1,3}\.\d{1,3}$/.test(ip) || /^fe[89ab][0-9a-f]:/.test(ip) || /^::(ffff:)?a9fe:[0-9a-f]{1,4}$/.test(ip);
}

/**
 * Why the sandbox sends no webhook to `url`, or `undefined` when it may: a loopback receiver or
 * a host the developer named (`webhookHosts`), never a link-local one (cloud metadata). Anything
 * else (a LAN or private address, a public name, a name such as `169.254.169.254.nip.io` that
 * resolves into the network) is refused unless named: the sandbox may be reachable by others,
 * and must not be made to call into its network for them.
 */
export function webhookTargetRefusal(url: string, webhookHosts: ReadonlySet<string>): string | undefined {
  let hostname: string;
  try {
    hostname = new URL(url).hostname.toLowerCase();
  } catch {
    return `'${url}' is not a URL`;
  }
  if (isLinkLocalHostname(hostname)) {
    return `${hostname} is a link-local address (169.254.0.0/16, fe80::/10: cloud metadata, the host's neighbours); the sandbox sends no webhooks there`;
  }
  if (isLoopbackName(hostname) || webhookHosts.has(unbracket(hostname))) return undefined;
  return `${hostname} is neither a loopback receiver nor named in createSandbox({ webhookHosts }) (--webhook-host); the sandbox sends webhooks only there`;
}

/** `webhookHosts` as the URL parser writes hostnames (lower case, IPv6 without brackets). */
export function webhookHostSet(names: readonly string[] | undefined): ReadonlySet<string> {
  const hosts = new Set<string>();
  for (const name of names ?? []) {
    let hostname: string | undefined;
    try {
      hostname = typeof name === 'string' && !/[/:@?#]/.test(name.replace(/^\[.*\]$/, '')) ? new URL(`http://${name}`).hostname : undefined;
    } catch {
      hostname = undefined;
    }
    if (hostname === undefined) {
      const got = JSON.stringify(name);
      throw new SandboxError(`createSandbox: webhookHosts: expected host names without scheme or port ('hooks.example', '10.0.0.5'), received ${got}`);
    }
    hosts.add(unbracket(hostname));
  }
  return hosts;
}

/** An IPv4 address (dotted) or an IPv6 one (bracketed or not), as opposed to a DNS name. */
export function isIpAddress(hostname: string): boolean {
  const ip = unbracket(hostname);
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(ip) || (ip.includes(':') && /^[0-9a-f:.]+$/.test(ip));
}

function unbracket(address: string): string {
  return address.toLowerCase().replace(/^\[(.*)\]$/, '$1');
}
