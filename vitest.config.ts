import { configDefaults, defineConfig } from 'vitest/config';

// API tests run on PGlite always, and again on PostgreSQL when DATABASE_URL is set (CI sets it).
const databaseUrl = process.env.DATABASE_URL ?? '';
const serverTests = ['apps/server/src/**/*.test.ts', 'packages/*/src/**/*.test.ts'];
// The tenancy route sweep calls every route of the app several times (minutes on PGlite). It checks
// the app's own scoping, not the engine, so it runs once: on PostgreSQL when there is one, else on PGlite.
const onceOnly = ['apps/server/src/modules/company/tenancy-routes.api.test.ts'];

export default defineConfig({
  test: {
    // Two worker processes on this 2-core machine: a file's setup (module graph, PGlite's WebAssembly)
    // and PostgreSQL's own work overlap; the default (cores − 1) ran every file in turn.
    maxWorkers: 2,
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
