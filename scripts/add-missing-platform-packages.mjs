#!/usr/bin/env node
/**
 * Adds to package-lock.json an entry for every optional platform package (the native binaries of
 * rollup, Biome and the like for other systems) that the lock lacks, carrying the version and the
 * platform (os, cpu, libc) read off the package name. Why it exists: CONTRIBUTING.md, "Changing
 * dependencies".
 *
 * Run after `npm install` changes the lock: `node scripts/add-missing-platform-packages.mjs`.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const entries = lock.packages;

const SYSTEMS = ['android', 'darwin', 'freebsd', 'linux', 'netbsd', 'openbsd', 'openharmony', 'sunos', 'win32', 'aix'];
const CPUS = ['arm64', 'x64', 'ia32', 'arm', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el', 'wasm32'];

/** The platform fields of a package named like `@rollup/rollup-linux-x64-musl` or `@biomejs/cli-win32-arm64`. */
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = SYSTEMS.find((system) => parts.includes(system));
  const cpu = CPUS.find((c) => parts.includes(c));
  const libc = parts.includes('musl') ? 'musl' : os === 'linux' && parts.includes('gnu') ? 'glibc' : undefined;
  return { ...(cpu && { cpu: [cpu] }), ...(os && { os: [os] }), ...(libc && { libc: [libc] }) };
}

const added = [];
for (const [path, meta] of Object.entries(entries)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const nested = `${path === '' ? '' : `${path}/`}node_modules/${name}`;
    if (entries[nested] !== undefined || entries[`node_modules/${name}`] !== undefined) continue;
    const platform = platformOf(name);
    // Only platform binaries: anything else missing is a real problem for `npm install` to solve.
    if (platform.os === undefined) continue;
    // In the order npm writes an entry's fields (version, then the rest alphabetically), so that a
    // later `npm install` finds the lock as it would have written it and leaves it alone.
    entries[`node_modules/${name}`] = {
      version,
      ...(platform.cpu && { cpu: platform.cpu }),
      ...(meta.dev && { dev: true }),
      ...(platform.libc && { libc: platform.libc }),
      optional: true,
      os: platform.os,
    };
    added.push(`${name}@${version}`);
  }
}

const sorted = Object.entries(entries).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0));
lock.packages = Object.fromEntries(sorted);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length === 0 ? 'package-lock.json: nothing missing' : `package-lock.json: added ${added.length} platform packages (${added.join(', ')})`);
