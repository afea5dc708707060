/**
 * The domain boundaries in figures (issue "Domain boundaries"): imports of another module's
 * tables and repos, import circles, long files. Reads the tree as text; no server, no database.
 *
 *   npx tsx bench/architecture.ts [--list]
 */
import {
  crossRepoImports,
  foreignTableImports,
  importCircles,
  longFiles,
  moduleCircles,
  readImports,
  unscopedWrites,
  upwardImports,
} from '../apps/server/src/architecture/boundaries';

const root = new URL('..', import.meta.url).pathname;
const list = process.argv.includes('--list');
const { files, edges } = readImports(root);
const tables = foreignTableImports(edges);
const repos = crossRepoImports(edges);
const circles = importCircles(files, edges);
const long = longFiles(root, files);

const tableNames = tables.reduce((n, f) => n + f.names.length, 0);
console.log(`foreign-table imports: ${tableNames} names in ${tables.length} files`);
if (list) for (const f of tables) console.log(`  ${f.file}: ${f.names.join(', ')}`);
console.log(`cross-module repo imports: ${repos.length}`);
if (list) for (const f of repos) console.log(`  ${f.file} -> ${f.target}`);
console.log(`import circles: ${circles.length}`);
for (const c of circles) console.log(`  ${c.join(' ⇄ ')}`);
console.log(`product files over 300 lines: ${long.length}`);
if (list) for (const f of long) console.log(`  ${f.file} ${f.lines}`);
const upward = upwardImports(edges);
console.log(`imports from a lower module layer up to a higher one: ${upward.length}`);
if (list) for (const f of upward) console.log(`  ${f.file} -> ${f.target}`);
const modCircles = moduleCircles(edges);
console.log(`circles between modules: ${modCircles.length}`);
for (const c of modCircles) console.log(`  ${c.join(' ⇄ ')}`);
const unscoped = unscopedWrites(root, files);
console.log(`updates/deletes of a tenant table that do not name the tenant: ${unscoped.length}`);
if (list) for (const w of unscoped) console.log(`  ${w.file}:${w.line} ${w.table}`);
