/**
 * Reads the source tree as text and reports how its domains touch each other (DESIGN §3): which
 * module imports a table another module owns, which imports another module's repo, and where the
 * imports run in a circle. Used by the guard-rail test beside it and by `bench/architecture.ts`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Each table's one owning module (apps/server/src/modules/<owner>); every other module uses its service. */
export const TABLE_OWNER: Readonly<Record<string, string>> = {
  // org
  tenants: 'company',
  companyModules: 'company',
  departments: 'departments',
  roles: 'roles',
  staff: 'staff',
  sessions: 'auth',
  loginLogs: 'login-logs',
  files: 'uploads',
  // customers and what hangs on them
  customerTemplates: 'customers',
  templateControls: 'customers',
  customers: 'customers',
  customerPhones: 'customers',
  phoneReveals: 'customers',
  followRecords: 'follow-ups',
  customerContacts: 'contacts',
  stages: 'stages',
  labels: 'labels',
  strategies: 'strategy',
  discardReasons: 'pools',
  pools: 'pools',
  poolEntries: 'pools',
  poolClaimCounts: 'pools',
  customerDeals: 'pools',
  // selling
  productCategories: 'products',
  products: 'products',
  productSpecs: 'products',
  productSpecValues: 'products',
  productVariants: 'products',
  orders: 'orders',
  orderLines: 'orders',
  orderCooperators: 'orders',
  receiptPlans: 'receipts',
  receipts: 'receipts',
  receiptSettings: 'receipts',
  // contracts
  contractAccounts: 'contract',
  contractAccountLogs: 'contract',
  contractTemplates: 'contract',
  contractRules: 'contract',
  contractCounters: 'contract',
  contractSeals: 'contract',
  contracts: 'contract',
  contractSigners: 'contract',
  contractEvents: 'contract',
  approvalTemplates: 'approvals',
  approvalTemplateVersions: 'approvals',
  approvalInstances: 'approvals',
  approvalSteps: 'approvals',
  approvalActions: 'approvals',
  workOrderTypes: 'workorders',
  workOrderStages: 'workorders',
  workOrders: 'workorders',
  workOrderEvents: 'workorders',
  workOrderFiles: 'workorders',
  // calling
  sipAccounts: 'extensions',
  callRecords: 'calls',
  callPresence: 'calls',
  appInstances: 'calls',
  callLegs: 'calls',
  callSettings: 'calls',
  callTests: 'calls',
  blackFiles: 'blacklist',
  blackNumbers: 'blacklist',
  doNotCall: 'compliance',
  dialRefusals: 'compliance',
  callTasks: 'calltasks',
  callTaskNumbers: 'calltasks',
  callTaskAgents: 'calltasks',
  groupCallCalls: 'groupcall',
  aiCalls: 'aicall',
  aireceptionSettings: 'aireception',
  aibotFlows: 'aibot',
  aibotFlowVersions: 'aibot',
  aibotSettings: 'aibot',
  // billing
  billingBalances: 'billing',
  billingLedger: 'billing',
  billingRatePlans: 'billing',
  billingPlanAssignments: 'billing',
  billingReservations: 'billing',
  billingCallUsage: 'billing',
  billingRecharges: 'billing',
  billingSettings: 'billing',
  billingAlerts: 'billing',
  billingRerates: 'billing',
  // lead search
  leadCompanies: 'leads',
  leadLists: 'leads',
  leadTemplates: 'leads',
  leadSettings: 'leads',
  leadLookups: 'leads',
  leadSearchCache: 'leads',
  leadConversions: 'leads',
  leadBatchRows: 'leads',
  // platform
  jobs: 'jobs',
  domainEvents: 'jobs',
};

export type ImportEdge = { from: string; to: string; names: string[]; typeOnly: boolean };
export type Finding = { file: string; target: string; names: string[] };

const SOURCE_ROOTS = ['apps/server/src', 'apps/web/src', 'packages'];
const isSource = (f: string) => /\.(ts|tsx)$/.test(f) && !/\.d\.ts$/.test(f);
/** Tests, test helpers and fixtures may reach anywhere: they build their own data. */
const isTestCode = (f: string) =>
  /\.test\.tsx?$/.test(f) || /(^|\/)test\//.test(f) || /-test-(client|graphs)\.ts$/.test(f) || /(^|\/)scripts\//.test(f);

const listFiles = (root: string, dir: string): string[] => {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => !f.includes('node_modules') && !f.includes('/dist/') && isSource(f) && statSync(join(root, f)).isFile());
};

// `import x from`, `import { a, type b } from`, `import type { c } from`, `export { d } from`, `export * from`
const IMPORT = /^(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]/gm;
const BARE_IMPORT = /^import\s+['"]([^'"]+)['"]/gm;
// a lazy `await import('./x')` still ties the two files together
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

const resolveSpecifier = (root: string, fromFile: string, spec: string): string | null => {
  let base: string;
  if (spec.startsWith('.')) base = join(dirname(fromFile), spec);
  else if (spec.startsWith('@crm/')) base = join('packages', spec.slice(5), 'src', 'index');
  else return null;
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  if (base.endsWith('.js')) candidates.unshift(`${base.slice(0, -3)}.ts`, `${base.slice(0, -3)}.tsx`);
  for (const c of candidates) {
    const abs = resolve(root, c);
    if (existsSync(abs) && statSync(abs).isFile()) return relative(root, abs);
  }
  return null;
};

const namesOf = (clause: string): string[] => {
  const inner = clause.match(/\{([\s\S]*)\}/)?.[1];
  const names = inner
    ? inner
        .split(',')
        .map((n) =>
          n
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]
            ?.trim(),
        )
        .filter((n): n is string => !!n)
    : [];
  const def = clause
    .replace(/\{[\s\S]*\}/, '')
    .replace(/,/g, ' ')
    .trim();
  if (def) names.push(def);
  return names;
};

const isTypeOnlyClause = (typeKeyword: string | undefined, clause: string) => {
  if (typeKeyword) return true;
  const inner = clause.match(/\{([\s\S]*)\}/)?.[1];
  if (!inner || clause.replace(/\{[\s\S]*\}/, '').trim()) return false;
  const parts = inner
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  return parts.length > 0 && parts.every((p) => p.startsWith('type '));
};

/** Every static import between files of the tree (tests included; callers filter). */
export const readImports = (root: string): { files: string[]; edges: ImportEdge[] } => {
  const files = SOURCE_ROOTS.flatMap((d) => listFiles(root, d));
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const to = resolveSpecifier(root, file, m[3] as string);
      if (to) edges.push({ from: file, to, names: namesOf(m[2] ?? ''), typeOnly: isTypeOnlyClause(m[1], m[2] ?? '') });
    }
    for (const m of [...text.matchAll(BARE_IMPORT), ...text.matchAll(DYNAMIC_IMPORT)]) {
      const to = resolveSpecifier(root, file, m[1] as string);
      if (to) edges.push({ from: file, to, names: [], typeOnly: false });
    }
  }
  return { files, edges };
};

const MODULE_OF = /^apps\/server\/src\/modules\/([^/]+)\//;
/** The server module a file belongs to (apps/server/src/modules/<name>/…), or null. */
export const moduleOf = (file: string): string | null => MODULE_OF.exec(file)?.[1] ?? null;

const isSchema = (file: string) => file.startsWith('apps/server/src/db/schema/');

/** Imports by a module's code of a table another module owns. */
export const foreignTableImports = (edges: ImportEdge[]): Finding[] =>
  edges.flatMap((e) => {
    const mod = moduleOf(e.from);
    if (!mod || isTestCode(e.from) || !isSchema(e.to)) return [];
    const foreign = e.names.filter((n) => TABLE_OWNER[n] !== undefined && TABLE_OWNER[n] !== mod);
    return foreign.length ? [{ file: e.from, target: e.to, names: foreign }] : [];
  });

/** Imports by a module's code of another module's repo (`*.repo.ts`). */
export const crossRepoImports = (edges: ImportEdge[]): Finding[] =>
  edges.flatMap((e) => {
    const mod = moduleOf(e.from);
    const target = moduleOf(e.to);
    if (!mod || !target || mod === target || isTestCode(e.from) || !/\.repo\.ts$/.test(e.to)) return [];
    return [{ file: e.from, target: e.to, names: e.names }];
  });

/** Strongly connected groups of more than one file (Tarjan), over product code (tests left out). */
export const importCircles = (files: string[], edges: ImportEdge[]): string[][] => {
  const graph = new Map<string, Set<string>>();
  for (const f of files) if (!isTestCode(f)) graph.set(f, new Set());
  for (const e of edges) if (graph.has(e.from) && graph.has(e.to) && e.from !== e.to) graph.get(e.from)?.add(e.to);
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, idx.get(w) as number));
    }
    if (low.get(v) === idx.get(v)) {
      const group: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) circles.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return circles;
};

/** Product files (tests left out) longer than `limit` lines. */
export const longFiles = (root: string, files: string[], limit = 300): { file: string; lines: number }[] =>
  files
    .filter((f) => !isTestCode(f) && !isSchema(f))
    .map((file) => ({ file, lines: readFileSync(join(root, file), 'utf8').split('\n').length }))
    .filter((f) => f.lines > limit)
    .sort((a, b) => b.lines - a.lines);

/**
 * The server modules in layers, lowest first (docs/ARCHITECTURE.md "Module layers"). A module uses
 * modules of its own layer or below; an import that runs up a layer is counted by `upwardImports`.
 */
export const MODULE_LAYERS: readonly (readonly string[])[] = [
  ['clock', 'health', 'metrics', 'jobs', 'uploads', 'speech'],
  ['company', 'departments', 'roles', 'staff', 'auth', 'login-logs'],
  ['stages', 'labels', 'strategy'],
  ['customers', 'contacts', 'follow-ups'],
  ['pools'],
  ['extensions', 'blacklist', 'compliance', 'calls'],
  ['products', 'approvals', 'aibot', 'billing'],
  ['calltasks', 'groupcall', 'aicall', 'aireception', 'orders', 'receipts', 'workorders'],
  ['contract', 'leads'],
  ['workbench'],
];

export const layerOf = (module: string): number => MODULE_LAYERS.findIndex((l) => l.includes(module));

/** Module → module imports of product code, with how many import lines make each. */
export const moduleEdges = (edges: ImportEdge[]): Map<string, Map<string, number>> => {
  const graph = new Map<string, Map<string, number>>();
  for (const e of edges) {
    const a = moduleOf(e.from);
    const b = moduleOf(e.to);
    if (!a || !b || a === b || isTestCode(e.from) || isTestCode(e.to)) continue;
    const out = graph.get(a) ?? new Map<string, number>();
    out.set(b, (out.get(b) ?? 0) + 1);
    graph.set(a, out);
  }
  return graph;
};

/** Import lines from a module to a module of a higher layer. */
export const upwardImports = (edges: ImportEdge[]): Finding[] =>
  edges.flatMap((e) => {
    const a = moduleOf(e.from);
    const b = moduleOf(e.to);
    if (!a || !b || a === b || isTestCode(e.from) || isTestCode(e.to)) return [];
    return layerOf(b) > layerOf(a) ? [{ file: e.from, target: e.to, names: e.names }] : [];
  });

/** Circles between whole modules (a module importing one that imports it back, directly or not). */
export const moduleCircles = (edges: ImportEdge[]): string[][] => {
  const graph = moduleEdges(edges);
  const nodes = new Set<string>([...graph.keys(), ...[...graph.values()].flatMap((m) => [...m.keys()])]);
  const asFileEdges: ImportEdge[] = [...graph].flatMap(([a, out]) =>
    [...out.keys()].map((b) => ({ from: a, to: b, names: [], typeOnly: false })),
  );
  return importCircles([...nodes], asFileEdges);
};

/** The tables that carry a `tenantId` column, read from the schema files. */
export const tenantTables = (root: string): Set<string> => {
  const found = new Set<string>();
  for (const file of listFiles(root, 'apps/server/src/db/schema')) {
    const text = readFileSync(join(root, file), 'utf8');
    const starts = [...text.matchAll(/export const (\w+) = pgTable\(/g)];
    starts.forEach((m, i) => {
      const block = text.slice(m.index, starts[i + 1]?.index ?? text.length);
      if (/\btenantId\s*:/.test(block)) found.add(m[1] as string);
    });
  }
  return found;
};

/**
 * Drizzle `.update(t)` / `.delete(t)` statements of product code on a tenant table whose chain (up
 * to the statement's end) never names the tenant: the second line of defence after a scoped read.
 */
export const unscopedWrites = (root: string, files: string[]): { file: string; table: string; line: number }[] => {
  const tables = tenantTables(root);
  return files
    .filter((f) => f.startsWith('apps/server/src/') && !isTestCode(f))
    .flatMap((file) => {
      const text = readFileSync(join(root, file), 'utf8');
      return [...text.matchAll(/\.(?:update|delete)\((\w+)\)/g)].flatMap((m) => {
        const table = m[1] as string;
        if (!tables.has(table)) return [];
        const end = text.indexOf(';', m.index);
        const chain = text.slice(m.index, end < 0 ? undefined : end);
        if (/tenantId|tenant_id/.test(chain)) return [];
        return [{ file, table, line: text.slice(0, m.index).split('\n').length }];
      });
    });
};
