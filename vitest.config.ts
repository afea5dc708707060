import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// API tests run on PGlite always, and again on PostgreSQL when DATABASE_URL is set (CI sets it).
const databaseUrl = process.env.DATABASE_URL ?? '';
// Three sweeps call every route of the app, some many times: the tenancy guard rail, the fuzzing of
// bad input and the masking scan (62 s and 48 s on PGlite in the 30 Nov 2026 CI rehearsal). They
// check the app's own scoping, validation and masking, not the engine, so each runs once: on
// PostgreSQL when there is one, else on PGlite.
const sweep = 'apps/server/src/modules/company/tenancy-routes.api.test.ts';
const onceOnly = [
  sweep,
  'apps/server/src/test/fuzz.api.test.ts',
  'apps/server/src/modules/customers/customer-access-scan.api.test.ts',
];

// The sweeps first: vitest orders a group's files by project name (pglite before postgres), so the
// sweep, once the longest file by far (≈ 200 s on PostgreSQL), started after every pglite file, about
// 175 s in, and the group ended with it, one core idle (29 Nov 2026: 411 s in all). Since it remakes
// company A's rows only when a baseline needs them (30 Nov 2026) it takes ≈ 35 s alone, 160 s before.
class SweepFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const first = (f: TestSpecification) => onceOnly.some((o) => f.moduleId.endsWith(o));
    return [...sorted.filter(first), ...sorted.filter((f) => !first(f))];
  }
}

// Two groups, one after the other. First everything that does not hang on wall-clock timing, two
// files at a time (the machine's 2 cores). Then the files that drive the sim line faster than real
// time (a 0.5 s ring is 2.5 ms at 200×): with more files competing for the CPU they failed, so each
// database's timed project runs one file at a time. Projects of one groupOrder share one pool of
// maxWorkers, so `npm run test:unit` (scripts/test-unit.mjs) runs the two timed projects as two vitest
// runs side by side, after the untimed ones; a plain `vitest run` runs them one after the other. The
// tenancy sweep is the exception: its one sim call lasts for hours of sim time and it is long,
// so it overlaps the first group.
const TIMED = /createCallTestApp|simSpeed|SimControlLine|sim-control/;
const serverRoot = 'apps/server/src';
const timedFiles = readdirSync(serverRoot, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts') && TIMED.test(readFileSync(join(serverRoot, f), 'utf8')))
  .map((f) => join(serverRoot, f))
  .filter((f) => f !== sweep);
const serverTests = [`${serverRoot}/**/*.test.ts`, 'packages/*/src/**/*.test.ts'];
const apiTests = ['apps/server/src/**/*.api.test.ts'];

const common = { environment: 'node' as const, testTimeout: 30_000, hookTimeout: 60_000 };
// A worker runs its files one after another in one module graph (isolate: false): importing the
// server app costs 2–3 s per file, and each worker seeds its test database once (fresh-database.ts).
// The files share no state but the process: each builds its own app on its own database.
const untimed = { maxWorkers: 2, isolate: false, sequence: { groupOrder: 0 } };
const timed = { maxWorkers: 1, isolate: false, sequence: { groupOrder: 1 } };
const pglite = { env: { DATABASE_URL: '' } };
const postgres = { env: { DATABASE_URL: databaseUrl } };
const pgliteExclude = [...configDefaults.exclude, ...(databaseUrl ? onceOnly : [])];

export default defineConfig({
  test: {
    sequence: { sequencer: SweepFirst },
    projects: [
      {
        test: {
          ...common,
          ...untimed,
          ...pglite,
          name: 'pglite',
          include: serverTests,
          exclude: [...pgliteExclude, ...timedFiles],
        },
      },
      { test: { ...common, ...timed, ...pglite, name: 'pglite-timed', include: timedFiles, exclude: pgliteExclude } },
      ...(databaseUrl
        ? [
            {
              test: {
                ...common,
                ...untimed,
                ...postgres,
                name: 'postgres',
                include: apiTests,
                exclude: [...configDefaults.exclude, ...timedFiles],
              },
            },
            {
              test: {
                ...common,
                ...timed,
                ...postgres,
                name: 'postgres-timed',
                include: timedFiles.filter((f) => f.endsWith('.api.test.ts')),
              },
            },
          ]
        : []),
      { test: { ...untimed, isolate: true, name: 'web', include: ['apps/web/src/**/*.test.ts'], environment: 'node' } },
    ],
  },
});
