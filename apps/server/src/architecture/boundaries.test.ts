/**
 * Guard rails of the domain boundaries (DESIGN §3, docs/ARCHITECTURE.md "Module layers"): each table
 * has one owning module, no module reaches into another's repo, no import circle anywhere (server,
 * web, packages), modules import down their layers. An exception is allowed only where it is listed
 * below with its reason.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  crossRepoImports,
  foreignTableImports,
  importCircles,
  moduleCircles,
  readImports,
  TABLE_OWNER,
  unscopedWrites,
  upwardImports,
} from './boundaries';

const root = join(import.meta.dirname, '../../../..');
const { files, edges } = readImports(root);

/**
 * `file: table` pairs a module may import from another module's schema, each with its reason. Only
 * reads belong here: a write to another module's table always goes through its owner.
 */
const ALLOWED_FOREIGN_TABLES: Readonly<Record<string, string>> = {
  'auth/auth.repo.ts: staff': 'every request turns its token into the caller (staff, role, company) in one query',
  'auth/auth.repo.ts: roles': 'the same per-request query: the role gives the menus, actions and data scope',
  'auth/auth.repo.ts: tenants': 'the same per-request query: a disabled company ends its sessions',
  'customers/customers-list.repo.ts: stages': 'the customer lists and export batches stay one statement at 1M customers',
  'customers/customers-list.repo.ts: staff': 'the same list statement: owner and creator names, sortable and filterable',
  'customers/customers-list.repo.ts: departments': 'the same list statement: the owner department name',
  'calls/calls.repo.ts: customers':
    'the call list and a recording download join the call customer, deleted ones included: masking and hearing follow him after deletion',
  'aicall/aicall-calls.repo.ts: callRecords':
    'the AI call lists filter by the called number and page and count in one statement (the export reads the same batches)',
  'pools/pool-recycle.repo.ts: customers':
    'the recycling rules are set-based reads over customers (the sweep, 即将回收, 预计回收时间 in the list); the writes go through customers',
};

/** `file -> repo file` imports across modules, each with its reason. */
const ALLOWED_CROSS_REPO: Readonly<Record<string, string>> = {};

/** `file -> file` imports from a lower module layer up to a higher one, each with its reason. */
const ALLOWED_UPWARD: Readonly<Record<string, string>> = {};

/** `file: table` updates/deletes of a tenant table that do not name the tenant, each with its reason. */
const ALLOWED_UNSCOPED_WRITES: Readonly<Record<string, string>> = {
  'apps/server/src/lib/events/events.ts: domainEvents': 'the event relay marks delivered events of every company by their own id',
  'auth/auth.repo.ts: sessions': 'the nightly purge of expired sessions covers every company',
  'calls/call-presence.ts: callPresence': 'a dead or restarted instance drops its socket rows of every company at once',
  'jobs/jobs.repo.ts: jobs': 'a queue delivery carries only the job id: the claim is what learns the company',
};

const rel = (f: string) => f.replace(/^apps\/server\/src\/modules\//, '');

describe('domain boundaries', () => {
  it('reads the whole tree', () => {
    // a reader that silently found nothing would pass every rule below
    expect(files.length).toBeGreaterThan(500);
    expect(edges.length).toBeGreaterThan(2000);
    expect(Object.keys(TABLE_OWNER).length).toBeGreaterThan(60);
  });

  it('a module imports only its own tables (the listed reads excepted)', () => {
    const found = foreignTableImports(edges).flatMap((f) => f.names.map((n) => `${rel(f.file)}: ${n}`));
    expect(found.filter((k) => !(k in ALLOWED_FOREIGN_TABLES))).toEqual([]);
    // an exception whose import is gone is taken off the list
    expect(Object.keys(ALLOWED_FOREIGN_TABLES).filter((k) => !found.includes(k))).toEqual([]);
  });

  it('a module uses another module through its service, never its repo', () => {
    const found = crossRepoImports(edges).map((f) => `${rel(f.file)} -> ${rel(f.target)}`);
    expect(found.filter((k) => !(k in ALLOWED_CROSS_REPO))).toEqual([]);
    expect(Object.keys(ALLOWED_CROSS_REPO).filter((k) => !found.includes(k))).toEqual([]);
  });

  it('no file imports itself back through a circle, on the server, the web or the packages', () => {
    expect(importCircles(files, edges)).toEqual([]);
  });

  it('modules import down their layers', () => {
    const found = [...new Set(upwardImports(edges).map((f) => `${rel(f.file)} -> ${rel(f.target)}`))];
    expect(found.filter((k) => !(k in ALLOWED_UPWARD))).toEqual([]);
    expect(Object.keys(ALLOWED_UPWARD).filter((k) => !found.includes(k))).toEqual([]);
  });

  it('every update and delete of a tenant table names the tenant (the listed sweeps excepted)', () => {
    const found = [...new Set(unscopedWrites(root, files).map((w) => `${rel(w.file)}: ${w.table}`))];
    expect(found.filter((k) => !(k in ALLOWED_UNSCOPED_WRITES))).toEqual([]);
    expect(Object.keys(ALLOWED_UNSCOPED_WRITES).filter((k) => !found.includes(k))).toEqual([]);
  });

  it('no two modules depend on each other', () => {
    expect(moduleCircles(edges)).toEqual([]);
  });

  it('the reader sees an import circle and a foreign table when there is one', () => {
    const made = [
      { from: 'apps/web/src/a.ts', to: 'apps/web/src/b.ts', names: ['b'], typeOnly: false },
      { from: 'apps/web/src/b.ts', to: 'apps/web/src/a.ts', names: ['a'], typeOnly: true },
      {
        from: 'apps/server/src/modules/labels/labels.repo.ts',
        to: 'apps/server/src/db/schema/customers.ts',
        names: ['customers', 'labels'],
        typeOnly: false,
      },
    ];
    expect(importCircles(['apps/web/src/a.ts', 'apps/web/src/b.ts'], made)).toEqual([['apps/web/src/a.ts', 'apps/web/src/b.ts']]);
    expect(foreignTableImports(made)).toEqual([
      {
        file: 'apps/server/src/modules/labels/labels.repo.ts',
        target: 'apps/server/src/db/schema/customers.ts',
        names: ['customers'],
      },
    ]);
  });
});
