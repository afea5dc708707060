import {
  CALLTASK_MODE,
  calltaskCreateBody,
  calltaskDetailSchema,
  calltaskEditBody,
  calltaskHoursSchema,
  calltaskIdBody,
  calltaskListBody,
  calltaskNumberFileBody,
  calltaskNumberFileSchema,
  calltaskNumberRowSchema,
  calltaskNumbersBody,
  calltaskOutcomeBody,
  calltaskRowSchema,
  envelope,
  listOf,
  okEnvelope,
  qId,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { ok } from '../../lib/reply';
import type { CallRuntime } from '../calls/call-bus';
import * as service from './calltasks.service';
import * as actions from './calltasks-actions';
import * as lists from './calltasks-lists';
import { type TaskKind, taskDeleteRoute, taskMoveRoutes } from './task-kind-routes';

const tags = ['calltasks'];
const P = '/api/frontend/calltask';
/** 坐席任务 (menu 250) manages tasks; an agent works his tasks from 坐席工作台 (menu 200) or 坐席任务. */
const config = { menu: '/calltask/tasklist' };
const agentConfig = { menu: ['/calltask/tasklist', '/seats/Index'] };
const idEnvelope = envelope(z.object({ cmStid: z.number() }));
/** the seat-task routes move, edit, delete and work seat tasks only (group and AI tasks have theirs) */
const requireManagedSeatTask = (db: Db, actor: Actor, id: number) =>
  service.requireManagedTaskOf(db, actor, id, CALLTASK_MODE.seat);
const kind: TaskKind = { prefix: P, tags, config, noun: '任务', requireManaged: requireManagedSeatTask };

/** Seat tasks (issue 15): paths under /api/frontend/calltask/. */
export const calltasksRoutes =
  (rt: CallRuntime): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      `${P}/create`,
      { schema: { tags, summary: '新建坐席任务', body: calltaskCreateBody, response: { 200: idEnvelope } }, config },
      async (req) => ok({ cmStid: await service.createTask(app.db, req.actor, req.body) }, '添加成功'),
    );
    app.post(
      `${P}/numberfile`,
      {
        schema: {
          tags,
          summary: '读取导入号码文件（.xlsx/.txt）',
          body: calltaskNumberFileBody,
          response: { 200: envelope(calltaskNumberFileSchema) },
        },
        config,
      },
      async (req) => ok({ lines: await service.numberFileLines(app.db, app.config.dataDir, req.actor, req.body.fileId) }),
    );
    app.post(
      `${P}/edit`,
      {
        schema: { tags, summary: '编辑坐席任务（未开始或已暂停）', body: calltaskEditBody, response: { 200: idEnvelope } },
        config,
      },
      async (req) => {
        await requireManagedSeatTask(app.db, req.actor, req.body.cmStid);
        return ok({ cmStid: await service.editTask(app.db, req.actor, req.body) }, '保存成功');
      },
    );
    taskDeleteRoute(app, kind);
    app.post(
      `${P}/list`,
      {
        schema: { tags, summary: '坐席任务列表', body: calltaskListBody, response: { 200: envelope(listOf(calltaskRowSchema)) } },
        config: agentConfig,
      },
      async (req) => ok(await lists.listTasks(app.db, req.actor, req.body)),
    );
    app.get(
      `${P}/detail`,
      {
        schema: {
          tags,
          summary: '坐席任务详情（含坐席统计）',
          querystring: z.object({ cmStid: qId() }),
          response: { 200: envelope(calltaskDetailSchema) },
        },
        config: agentConfig,
      },
      async (req) => ok(await lists.taskDetail(app.db, req.actor, req.query.cmStid)),
    );
    app.get(
      `${P}/hours`,
      {
        schema: { tags, summary: '公司外呼时间（任务时段须在其内）', response: { 200: envelope(calltaskHoursSchema) } },
        config,
      },
      async (req) => ok(await service.companyHours(app.db, req.actor)),
    );
    taskMoveRoutes(app, rt, kind);
    app.post(
      `${P}/numbers`,
      {
        schema: {
          tags,
          summary: '任务号码（按查看人脱敏）',
          body: calltaskNumbersBody,
          response: { 200: envelope(listOf(calltaskNumberRowSchema)) },
        },
        config: agentConfig,
      },
      async (req) => ok(await lists.taskNumbers(app.db, req.actor, req.body)),
    );
    app.post(
      `${P}/work`,
      {
        schema: {
          tags,
          summary: '坐席开始做任务（自动拨打下一个号码）',
          body: calltaskIdBody,
          response: { 200: envelope(z.object({ isDialled: z.number() })) },
        },
        config: agentConfig,
      },
      async (req) => {
        await lists.requireTaskMode(app.db, req.actor.tenantId, req.body.cmStid, CALLTASK_MODE.seat);
        return ok(await actions.work(rt, req.actor, req.body.cmStid), '已开始');
      },
    );
    app.post(
      `${P}/unwork`,
      { schema: { tags, summary: '坐席停止做任务', body: calltaskIdBody, response: { 200: okEnvelope } }, config: agentConfig },
      async (req) => {
        await service.stopWork(app.db, req.actor, req.body.cmStid);
        return ok(null, '已停止');
      },
    );
    app.post(
      `${P}/outcome`,
      {
        schema: {
          tags,
          summary: '本次任务通话结果（接通、拒绝、空号/停机、稍后再拨）',
          body: calltaskOutcomeBody,
          response: { 200: okEnvelope },
        },
        config: agentConfig,
      },
      async (req) => {
        await actions.outcome(rt, req.actor, req.body);
        return ok(null, '已保存');
      },
    );
  };
