import { defineConfig } from 'vitest/config';

// API tests run on PGlite always, and again on PostgreSQL when DATABASE_URL is set (CI sets it).
const databaseUrl = process.env.DATABASE_URL ?? '';
const serverTests = ['apps/server/src/**/*.test.ts', 'packages/*/src/**/*.test.ts'];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'pglite',
          include: serverTests,
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
