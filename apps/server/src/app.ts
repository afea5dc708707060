import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import { startEventRelay } from './jobs/events-relay';
import { type JobQueue, startJobQueue } from './jobs/queue';
import { connectSettingsCache } from './lib/settings-cache';
import { openStorage } from './lib/storage';
import { aibotRoutes } from './modules/aibot/aibot.routes';
import { aicallPlugin } from './modules/aicall/aicall.plugin';
import { aireceptionPlugin } from './modules/aireception/aireception.plugin';
import { approvalsRoutes } from './modules/approvals/approvals.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { onLogout } from './modules/auth/logout-hooks';
import { billingPlugin } from './modules/billing/billing.plugin';
import { blacklistRoutes } from './modules/blacklist/blacklist.routes';
import { callsPlugin } from './modules/calls/calls.plugin';
import { registerCallsFiles } from './modules/calls/calls-files';
import { calltasksPlugin } from './modules/calltasks/calltasks.plugin';
import { clockRoutes } from './modules/clock/clock.routes';
import { companyRoutes } from './modules/company/company.routes';
import { registerComplianceEvents } from './modules/compliance/compliance.events';
import { complianceRoutes } from './modules/compliance/compliance.routes';
import { contactsRoutes } from './modules/contacts/contacts.routes';
import { contractRoutes } from './modules/contract/contract.routes';
import { registerContractApproval } from './modules/contract/contract-approval';
import { registerContractFiles } from './modules/contract/contract-files';
import { contractPublicRoutes } from './modules/contract/contract-public.routes';
import { registerCustomersEvents } from './modules/customers/customers.events';
import { customersRoutes } from './modules/customers/customers.routes';
import { registerCustomersFiles } from './modules/customers/customers-files';
import { departmentsRoutes } from './modules/departments/departments.routes';
import { extensionsRoutes } from './modules/extensions/extensions.routes';
import { unregisterOnLogout } from './modules/extensions/extensions.service';
import { registerFollowUpsEvents } from './modules/follow-ups/follow-ups.events';
import { followUpsRoutes } from './modules/follow-ups/follow-ups.routes';
import { groupcallPlugin } from './modules/groupcall/groupcall.plugin';
import { healthRoutes } from './modules/health/health.routes';
import { startJobWorkers } from './modules/jobs/jobs.service';
import { labelsRoutes } from './modules/labels/labels.routes';
import { leadsPlugin } from './modules/leads/leads.plugin';
import { loginLogsRoutes } from './modules/login-logs/login-logs.routes';
import { metricsPlugin } from './modules/metrics/metrics.plugin';
import { ordersRoutes } from './modules/orders/orders.routes';
import { registerOrdersApproval } from './modules/orders/orders-approval';
import { registerPoolsEvents } from './modules/pools/pools.events';
import { poolsRoutes } from './modules/pools/pools.routes';
import { productsRoutes } from './modules/products/products.routes';
import { receiptsRoutes } from './modules/receipts/receipts.routes';
import { registerReceiptsApproval } from './modules/receipts/receipts-approval';
import { rolesRoutes } from './modules/roles/roles.routes';
import { registerSpeechUploads } from './modules/speech/speech-uploads';
import { staffRoutes } from './modules/staff/staff.routes';
import { registerStaffUsage } from './modules/staff/staff-usage';
import { stagesRoutes } from './modules/stages/stages.routes';
import { strategyRoutes } from './modules/strategy/strategy.routes';
import { uploadsRoutes } from './modules/uploads/uploads.routes';
import { workbenchRoutes } from './modules/workbench/workbench.routes';
import { workOrdersRoutes } from './modules/workorders/workorders.routes';
import { registerWorkOrdersFiles } from './modules/workorders/workorders-files';
import { authPlugin } from './plugins/auth';
import { errorsPlugin } from './plugins/errors';
import { inputGuardPlugin } from './plugins/input-guard';
import { metricSources, readinessChecks } from './plugins/operations';
import { genRequestId, requestIdPlugin } from './plugins/request-id';
import { spaPlugin } from './plugins/spa';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    dbKind: Database['kind'];
    config: Config;
    /** the durable job queue (pg-boss on this database) */
    queue: JobQueue;
  }
}

/** Builds the one server process: plugins in load order (external → app → routes), then the SPA. */
export const buildApp = async (config: Config, database: Database): Promise<FastifyInstance> => {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    logController: new LogController({ disableRequestLogging: !config.logRequests }),
    trustProxy: config.trustProxy,
    // every log line of a request carries its reqId: a sane incoming X-Request-Id, else a UUID (plugins/request-id.ts)
    requestIdHeader: false,
    genReqId: genRequestId,
    bodyLimit: 2 * 1024 * 1024,
    // a plugin's start (the speech engine's WASM, the line, pg-boss) may take well over Fastify's default
    // 10 s on busy cores; failing the start there made a cluster worker crash-loop (issue 25)
    pluginTimeout: 120_000,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('db', database.db);
  app.decorate('dbKind', database.kind);
  app.decorate('config', config);
  await app.register(requestIdPlugin);
  // closed last (onClose hooks run in reverse): the job workers stop before the storage does
  const storage = openStorage(config);
  app.addHook('onClose', async () => storage.close());
  const queue = await startJobQueue(database, app.log);
  app.decorate('queue', queue);
  app.addHook('onClose', async () => queue.stop());

  // stored files: who may fetch one, what a scene asks of an upload; each owning module says so
  registerCallsFiles();
  registerCustomersFiles();
  registerWorkOrdersFiles();
  registerContractFiles();
  registerSpeechUploads();

  // external
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        workerSrc: ["'self'", 'blob:'],
        upgradeInsecureRequests: config.isProduction ? [] : null,
      },
    },
    hsts: config.isProduction,
  });
  await app.register(rateLimit, { global: false });
  await app.register(multipart);
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  await app.register(swagger, {
    openapi: { info: { title: '云呼 CRM API', version: '0.1.0' } },
    transform: jsonSchemaTransform,
    // The recursive schemas (trees, controls with children) are named components (`.meta({ id })` in the
    // contracts): this puts them in components.schemas, where the operations' $refs point (issue 23).
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  // app
  await app.register(errorsPlugin);
  await app.register(inputGuardPlugin);
  await app.register(authPlugin);
  // GET /metrics and the HTTP latency of every route (issue 25)
  await app.register(metricsPlugin, { pool: database.pool, sources: metricSources(app) });

  // routes
  await app.register(healthRoutes, { checks: readinessChecks(app) });
  await app.register(authRoutes);
  await app.register(departmentsRoutes);
  await app.register(rolesRoutes);
  await app.register(staffRoutes);
  await app.register(companyRoutes);
  await app.register(loginLogsRoutes);
  await app.register(uploadsRoutes);
  await app.register(workbenchRoutes);
  await app.register(strategyRoutes);
  await app.register(customersRoutes);
  await app.register(stagesRoutes);
  await app.register(labelsRoutes);
  await app.register(followUpsRoutes);
  await app.register(contactsRoutes);
  await app.register(extensionsRoutes);
  await app.register(callsPlugin);
  // the companies' settings kept per process hear each other's writes on the app's bus (lib/settings-cache)
  const disconnectSettings = await connectSettingsCache(app.calls.bus);
  app.addHook('onClose', async () => disconnectSettings());
  await app.register(calltasksPlugin);
  await app.register(groupcallPlugin);
  await app.register(leadsPlugin);
  await app.register(blacklistRoutes);
  await app.register(complianceRoutes);
  await app.register(poolsRoutes);
  await app.register(productsRoutes);
  await app.register(approvalsRoutes);
  await app.register(ordersRoutes);
  await app.register(receiptsRoutes);
  await app.register(contractRoutes);
  await app.register(contractPublicRoutes);
  await app.register(workOrdersRoutes);
  await app.register(aibotRoutes);
  await app.register(aicallPlugin);
  await app.register(aireceptionPlugin);
  await app.register(billingPlugin);
  if (config.isClockControlled) await app.register(clockRoutes);

  await app.register(spaPlugin, { webDist: config.webDist });
  // after every route module has defined its job kinds
  await startJobWorkers({ db: database.db, log: app.log, dataDir: config.dataDir });
  // domain events: each owning domain's reactions, and the relay for events left undelivered
  registerFollowUpsEvents();
  registerCustomersEvents();
  // staff counts on the department and role pages (those modules sit below staff)
  registerStaffUsage();
  // a logout unregisters the staff member's extension (auth sits below extensions)
  onLogout(unregisterOnLogout);
  registerPoolsEvents();
  registerComplianceEvents();
  registerOrdersApproval();
  registerReceiptsApproval();
  registerContractApproval();
  await startEventRelay(queue, database.db, app.log);
  return app;
};
