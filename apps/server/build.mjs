// The production server (npm run build:server): src/main.ts and src/cluster.ts bundled by esbuild
// into dist/, the workspace packages (@crm/*) inlined, every npm dependency left to node_modules.
// Running the bundle with plain node instead of the tsx loader halves the idle memory (measured on
// PostgreSQL: 473 MB -> 255 MB RSS; tsx keeps every transformed module and its source map).
// The sip line's media worker (src/telephony/sip/rtp/media-worker.ts) is an entry of its own,
// dist/media-worker.mjs, which media-thread.ts starts from next to the bundle it runs in.
// Types are checked by `npm run typecheck`, not here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const here = import.meta.dirname;
const root = path.resolve(here, '../..');
const manifests = [
  'package.json',
  'apps/server/package.json',
  'packages/contracts/package.json',
  'packages/regions/package.json',
];
const external = new Set();
for (const file of manifests) {
  const pkg = JSON.parse(readFileSync(path.join(root, file), 'utf8'));
  for (const name of Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.optionalDependencies })) {
    if (!name.startsWith('@crm/')) external.add(name);
  }
}

await build({
  entryPoints: {
    main: path.join(here, 'src/main.ts'),
    cluster: path.join(here, 'src/cluster.ts'),
    'media-worker': path.join(here, 'src/telephony/sip/rtp/media-worker.ts'),
  },
  outdir: path.join(here, 'dist'),
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  external: [...external].flatMap((name) => [name, `${name}/*`]),
  logLevel: 'warning',
});
console.log(
  `server bundle written to ${path.relative(root, path.join(here, 'dist'))}/ (main.mjs, cluster.mjs, media-worker.mjs)`,
);
