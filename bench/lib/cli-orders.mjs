/**
 * The orders of the command line's import bench: the benchmarks' realistic order (10 image URLs),
 * each with references of its own, as a CSV file for `delivery-sdk orders import` and as the
 * objects that file's rows become, for the baseline.
 */

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { realisticOrder } from './order.mjs';

const template = realisticOrder();
const { dropOffAddress: address, receiver, specs } = template;
const images = template.deliveryImages[0].images;

/** The order of row `i` (from 1), as the command reads it from the CSV. */
const orderOf = (i) => ({ ...template, businessReference: `CLI-${i}`, uniqueBusinessReference: `U-CLI-${i}` });

export const importOrders = (count) => Array.from({ length: count }, (_, i) => orderOf(i + 1));

const COLUMNS = [
  ['type', () => template.type],
  ['businessReference', (i) => `CLI-${i}`],
  ['uniqueBusinessReference', (i) => `U-CLI-${i}`],
  ...Object.keys(receiver).map((name) => [`receiver.${name}`, () => receiver[name]]),
  ...Object.keys(address).map((name) => [`dropOffAddress.${name}`, () => address[name]]),
  ['cod', () => template.cod],
  ['notes', () => template.notes],
  ['specs.packageType', () => specs.packageType],
  ['specs.packageDetails.description', () => specs.packageDetails.description],
  ['specs.packageDetails.itemsCount', () => specs.packageDetails.itemsCount],
  ['allowToOpenPackage', () => template.allowToOpenPackage],
  ['deliveryImages', () => images.join(' ')],
];

const cell = (value) => (/[",\n]/.test(String(value)) ? `"${String(value).replaceAll('"', '""')}"` : String(value));

/** Writes `count` rows to `file`, streamed. */
export async function writeImportFile(file, count) {
  const out = createWriteStream(file);
  out.write(`${COLUMNS.map(([name]) => name).join(',')}\n`);
  for (let i = 1; i <= count; i++) {
    if (!out.write(`${COLUMNS.map(([, value]) => cell(value(i))).join(',')}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}
