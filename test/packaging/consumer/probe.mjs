// Runs inside the consumer project: imports and requires every entry of the installed package and
// prints what it found as JSON. Usage: node probe.mjs '["delivery-sdk", "delivery-sdk/webhooks"]'
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const specifiers = JSON.parse(process.argv[2] ?? '[]');

const loaded = { esm: {}, cjs: {} };
const report = { entries: {}, failed: {}, sharedExportsDiffer: [], classesChecked: 0, misnamedClasses: [], missing: [] };
for (const specifier of specifiers) {
  let esm;
  let cjs;
  try {
    esm = await import(specifier);
    cjs = require(specifier);
  } catch (error) {
    // An entry for an optional peer the project does not have: the test reads why it failed.
    report.failed[specifier] = error instanceof Error ? error.message : String(error);
    continue;
  }
  loaded.esm[specifier] = esm;
  loaded.cjs[specifier] = cjs;
  report.entries[specifier] = {
    esmFile: import.meta.resolve(specifier),
    cjsFile: require.resolve(specifier),
    esmExports: Object.keys(esm).sort(),
    cjsExports: Object.keys(cjs).sort(),
  };
}

// A name two entries both export must be the same value in one module system: otherwise an
// error thrown by one entry fails `instanceof` against the class imported from the other.
for (const format of ['esm', 'cjs']) {
  const byName = new Map();
  for (const [specifier, exports] of Object.entries(loaded[format])) {
    for (const [name, value] of Object.entries(exports)) {
      const first = byName.get(name);
      if (first === undefined) byName.set(name, { specifier, value });
      else if (first.value !== value) report.sharedExportsDiffer.push(`${format}: ${name} of ${specifier} is not the one of ${first.specifier}`);
    }
  }
}

// Logs and metrics key on `constructor.name`: a bundler that renames a class (`_class12`) breaks them.
const isClass = (value) => typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value));
for (const format of ['esm', 'cjs']) {
  for (const [specifier, exports] of Object.entries(loaded[format])) {
    for (const [name, value] of Object.entries(exports)) {
      if (!isClass(value)) continue;
      report.classesChecked++;
      // A deprecated alias (`DeliveriesResource`) is the class exported under its own name too: it keeps that name.
      if (value.name !== name && exports[value.name] !== value) report.misnamedClasses.push(`${format}: ${name} of ${specifier} is named '${value.name}'`);
    }
  }
}

for (const optional of ['msw', 'ioredis', 'redis', '@opentelemetry/api', '@modelcontextprotocol/sdk']) {
  try {
    require.resolve(optional);
  } catch {
    report.missing.push(optional);
  }
}

console.log(JSON.stringify(report));
