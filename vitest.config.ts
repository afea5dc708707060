import { configDefaults, defineConfig } from 'vitest/config';

// API tests run on PGlite always, and again on PostgreSQL when DATABASE_URL is set (CI sets it).
const databaseUrl = process.env.DATABASE_URL ?? '';
const serverTests = ['apps/server/src/**/*.test.ts', 'packages/*/src/**/*.test.ts'];
// The tenancy route sweep calls every route of the app several times (minutes on PGlite). It checks
// the app's own scoping, not the engine, so it runs once: on PostgreSQL when there is one, else on PGlite.
const onceOnly = ['apps/server/src/modules/company/tenancy-routes.api.test.ts'];

export default defineConfig({
  test: {
    // One file at a time (the default on 2 cores): the sim line runs 200× faster than real time, so
    // the call tests' timings (a 0.5 s ring is 2.5 ms) do not survive two workers competing for the CPU.
    projects: [
      {
        test: {
          name: 'pglite',
          include: serverTests,
          exclude: [...configDefaults.exclude, ...(databaseUrl ? onceOnly : [])],
          environment: 'node',
          env: { DATABASE_URL: '' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(databaseUrl
        ? [
            {
              test: {
                name: 'postgres',
                include: ['apps/server/src/**/*.api.test.ts'],
                environment: 'node',
                env: { DATABASE_URL: databaseUrl },
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      { test: { name: 'web', include: ['apps/web/src/**/*.test.ts'], environment: 'node' } },
    ],
  },
});
