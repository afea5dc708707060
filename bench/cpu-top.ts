/**
 * Where a process spent its CPU: reads V8 .cpuprofile files (node --cpu-prof) and prints the functions
 * and the packages / app files with the most self time.
 *
 *   npx tsx bench/cpu-top.ts <file.cpuprofile | directory> [top=25]
 */
import fs from 'node:fs';
import path from 'node:path';

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

const target = process.argv[2];
const top = Number(process.argv[3] ?? 25);
if (!target) throw new Error('usage: npx tsx bench/cpu-top.ts <file.cpuprofile | directory> [top]');
const files = fs.statSync(target).isDirectory()
  ? fs
      .readdirSync(target)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => path.join(target, f))
  : [target];

/** node_modules/<package> (scoped too), the app's own file, or node's internals. */
const ownerOf = (url: string) => {
  if (!url) return '(native / V8)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return 'node:internals';
  const src = url.indexOf('/src/');
  return src >= 0 ? url.slice(url.lastIndexOf('/', src - 1) + 1) : url;
};

for (const file of files) {
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  p.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (p.timeDeltas[i] ?? 0));
  });
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const fn = new Map<string, number>();
  const owner = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)?.callFrame ?? { functionName: '?', url: '', lineNumber: 0 };
    const key = `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/apps\//, 'apps/')}:${lineNumber + 1}` : ''}`;
    fn.set(key, (fn.get(key) ?? 0) + us);
    const o = ownerOf(url);
    owner.set(o, (owner.get(o) ?? 0) + us);
  }
  const idle = [...fn.entries()].filter(([k]) => k.startsWith('(idle)')).reduce((a, [, v]) => a + v, 0);
  const pct = (us: number) => `${((100 * us) / total).toFixed(1)} %`;
  console.log(`\n${path.basename(file)}: ${(total / 1e6).toFixed(1)} s sampled, idle ${pct(idle)}`);
  console.log('\nself time by package / app file:');
  for (const [k, us] of [...owner.entries()].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${pct(us).padStart(7)}  ${(us / 1e3).toFixed(0).padStart(7)} ms  ${k}`);
  console.log('\nself time by function:');
  for (const [k, us] of [...fn.entries()].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`  ${pct(us).padStart(7)}  ${(us / 1e3).toFixed(0).padStart(7)} ms  ${k}`);
}
