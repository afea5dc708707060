import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { leadsRoutes } from './leads.routes';
import { providerHandle } from './leads-provider.service';
import { seedStarterTemplates } from './leads-templates';
import { startProviderTestDouble } from './provider/provider-test-double';

/** The key the in-process provider TEST DOUBLE accepts (development and demo only; never production). */
export const DEMO_PROVIDER_KEY = 'demo-double-key';
const DEMO_PROVIDER_SECRET = 'demo-double-secret';

/**
 * Lead search (issue 28): the provider (in development the fictional TEST DOUBLE started here,
 * on 127.0.0.1), the starter templates and the routes. The demo registry is seeded with the demo
 * company (db/seed/demo.ts, never in production).
 */
export const leadsPlugin = fp(async (app: FastifyInstance) => {
  let cfg = app.config.leads;
  let url = cfg.providerUrl;
  if (url === 'test-double' && !app.config.isProduction) {
    const double = await startProviderTestDouble({ keys: { [DEMO_PROVIDER_KEY]: DEMO_PROVIDER_SECRET }, qps: cfg.tenantQps });
    app.addHook('onClose', async () => double.close());
    url = double.url;
    if (!cfg.providerKey) cfg = { ...cfg, providerKey: DEMO_PROVIDER_KEY, providerSecret: DEMO_PROVIDER_SECRET };
  } else if (url === 'test-double') url = '';
  await app.register(leadsRoutes(providerHandle(url, cfg)));
  app.addHook('onReady', async () => {
    await seedStarterTemplates(app.db);
  });
});
