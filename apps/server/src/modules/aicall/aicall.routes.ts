import {
  aicallCreateBody,
  aicallEditBody,
  aicallReportSchema,
  aicallRowSchema,
  calltaskDelBody,
  calltaskIdBody,
  calltaskListBody,
  calltaskNumberRowSchema,
  calltaskNumbersBody,
  envelope,
  jobIdEnvelope,
  listOf,
  okEnvelope,
  qId,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import type { CallRuntime } from '../calls/call-bus';
import * as seat from '../calltasks/calltasks.service';
import * as actions from '../calltasks/calltasks-actions';
import { taskNumbers } from '../calltasks/calltasks-lists';
import { startAiTaskExport } from './aicall-export';
import { aiTaskReport } from './aicall-report';
import * as service from './aicall-tasks.service';

const tags = ['aicall'];
const P = '/api/frontend/aicall';
/** AI外呼任务 (menu 300). */
const config = { menu: '/aicall/Index' };
const idEnvelope = envelope(z.object({ cmStid: z.number() }));
const idQuery = z.object({ cmStid: qId() });

/** AI tasks (issue 16): paths under /api/frontend/aicall/ (thin: the seat-task services with mode 2). */
export const aicallRoutes =
  (rt: CallRuntime): FastifyPluginAsyncZod =>
  async (app) => {
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
    app.post(
      `${P}/del`,
      {
        schema: { tags, summary: '删除AI外呼任务（进行中的不能删除）', body: calltaskDelBody, response: { 200: okEnvelope } },
        config,
      },
      async (req) => {
        await service.requireManagedAiTask(app.db, req.actor, req.body.cmStid);
        await seat.deleteTask(app.db, req.actor, req.body.cmStid);
        return ok(null, '删除成功');
      },
    );
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
    for (const [move, summary, msg] of [
      ['start', '开始AI外呼任务', '任务已开始'],
      ['pause', '暂停AI外呼任务', '任务已暂停'],
      ['resume', '继续AI外呼任务', '任务已继续'],
      ['stop', '停止AI外呼任务', '任务已停止'],
    ] as const) {
      app.post(
        `${P}/${move}`,
        { schema: { tags, summary, body: calltaskIdBody, response: { 200: okEnvelope } }, config },
        async (req) => {
          await service.requireManagedAiTask(app.db, req.actor, req.body.cmStid);
          await actions.moveTask(rt, req.actor, req.body.cmStid, move);
          return ok(null, msg);
        },
      );
    }
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
