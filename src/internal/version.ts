/**
 * The package's version, written in at build time from package.json (tsup's and vitest's
 * `define`): no entry reads package.json when it runs. Code run from the sources by other means
 * (tsx) says `0.0.0-dev`.
 */
declare const __DELIVERY_SDK_VERSION__: string | undefined;

export const SDK_VERSION: string = typeof __DELIVERY_SDK_VERSION__ === 'string' ? __DELIVERY_SDK_VERSION__ : '0.0.0-dev';
