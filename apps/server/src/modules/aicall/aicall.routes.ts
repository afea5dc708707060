import {
  aicallCreateBody,
  aicallEditBody,
  aicallReportSchema,
  aicallRowSchema,
  aicallSpeechSchema,
  calltaskIdBody,
  calltaskListBody,
  calltaskNumberRowSchema,
  calltaskNumbersBody,
  envelope,
  jobIdEnvelope,
  listOf,
  qId,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/reply';
import type { CallRuntime } from '../calls/call-bus';
import { taskNumbers } from '../calltasks/calltasks-lists';
import { type TaskKind, taskDeleteRoute, taskMoveRoutes } from '../calltasks/task-kind-routes';
import type { SpeechKit } from '../speech/speech';
import { startAiTaskExport } from './aicall-export';
import { aiTaskReport } from './aicall-report';
import * as service from './aicall-tasks.service';

const tags = ['aicall'];
const P = '/api/frontend/aicall';
/** AI外呼任务 (menu 300). */
const config = { menu: '/aicall/Index' };
const idEnvelope = envelope(z.object({ cmStid: z.number() }));
const idQuery = z.object({ cmStid: qId() });
const kindWith = (kit: SpeechKit): TaskKind => ({
  prefix: P,
  tags,
  config,
  noun: 'AI外呼任务',
  requireManaged: service.requireManagedAiTask,
  // a bot that cannot speak would only use up the task's numbers (issue 23)
  beforeMove: (move) => {
    if ((move === 'start' || move === 'resume') && !kit.synthesizer.isAvailable) throw new AppError('SPEECH_BOT_UNAVAILABLE');
  },
});

/** AI tasks (issue 16): paths under /api/frontend/aicall/ (thin: the seat-task services with mode 2). */
export const aicallRoutes =
  (rt: CallRuntime, kit: SpeechKit): FastifyPluginAsyncZod =>
  async (app) => {
    const kind = kindWith(kit);
    app.get(
      `${P}/speech`,
      {
        schema: {
          tags,
          summary: '语音合成是否可用（不可用时不能开始AI外呼、启用AI接待）',
          response: { 200: envelope(aicallSpeechSchema) },
        },
        config: { menu: [config.menu, '/aireception/Index'] },
      },
      async () => ok({ isAvailable: kit.synthesizer.isAvailable, provider: kit.synthesizer.provider }),
    );
    app.post(
      `${P}/create`,
      { schema: { tags, summary: '新建AI外呼任务', body: aicallCreateBody, response: { 200: idEnvelope } }, config },
      async (req) => ok({ cmStid: await service.createAiTask(app.db, req.actor, req.body) }, '添加成功'),
    );
    app.post(
      `${P}/edit`,
      {
        schema: { tags, summary: '编辑AI外呼任务（未开始或已暂停）', body: aicallEditBody, response: { 200: idEnvelope } },
        config,
      },
      async (req) => ok({ cmStid: await service.editAiTask(app.db, req.actor, req.body) }, '保存成功'),
    );
    taskDeleteRoute(app, kind);
    app.post(
      `${P}/list`,
      {
        schema: { tags, summary: 'AI外呼任务列表', body: calltaskListBody, response: { 200: envelope(listOf(aicallRowSchema)) } },
        config,
      },
      async (req) => ok(await service.listAiTasks(app.db, req.actor, req.body)),
    );
    app.get(
      `${P}/detail`,
      {
        schema: { tags, summary: 'AI外呼任务详情', querystring: idQuery, response: { 200: envelope(aicallRowSchema) } },
        config,
      },
      async (req) => ok(await service.aiTaskDetail(app.db, req.actor, req.query.cmStid)),
    );
    taskMoveRoutes(app, rt, kind);
    app.post(
      `${P}/numbers`,
      {
        schema: {
          tags,
          summary: 'AI外呼任务号码（按查看人脱敏）',
          body: calltaskNumbersBody,
          response: { 200: envelope(listOf(calltaskNumberRowSchema)) },
        },
        config,
      },
      async (req) => {
        await service.requireAiTask(app.db, req.actor, req.body.cmStid);
        return ok(await taskNumbers(app.db, req.actor, req.body));
      },
    );
    app.get(
      `${P}/report`,
      {
        schema: { tags, summary: 'AI外呼任务报表', querystring: idQuery, response: { 200: envelope(aicallReportSchema) } },
        config,
      },
      async (req) => ok(await aiTaskReport(app.db, req.actor, req.query.cmStid)),
    );
    app.post(
      `${P}/export`,
      {
        schema: {
          tags,
          summary: '导出AI外呼任务的通话（后台任务，返回 jobId）',
          body: calltaskIdBody,
          response: { 200: jobIdEnvelope },
        },
        config,
      },
      async (req) => ok({ jobId: await startAiTaskExport(app.db, req.actor, req.body.cmStid) }, '导出任务已创建'),
    );
  };
