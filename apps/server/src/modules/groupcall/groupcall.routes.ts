import {
  calltaskIdBody,
  calltaskListBody,
  envelope,
  groupcallBoardSchema,
  groupcallCreateBody,
  groupcallEditBody,
  groupcallRowSchema,
  listOf,
  okEnvelope,
  qId,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import type { CallRuntime } from '../calls/call-bus';
import { type TaskKind, taskDeleteRoute, taskMoveRoutes } from '../calltasks/task-kind-routes';
import * as service from './groupcall.service';
import { boardOf, publishBoard } from './groupcall-board';
import type { GroupDialerState } from './groupcall-state';

const tags = ['groupcall'];
const P = '/api/frontend/groupcall';
/** 群呼任务 (menu 500): agents list, watch and work their tasks there. */
const config = { menu: '/groupcall/Index' };
/**
 * Creating, editing, moving and deleting group tasks (a predictive dialer on any numbers) is for the
 * roles that manage seat tasks (menu 250) as well: menu 500 alone is what an agent needs to work them.
 */
const manageConfig = { menu: '/groupcall/Index', alsoMenus: ['/calltask/tasklist'] };
const idEnvelope = envelope(z.object({ cmStid: z.number() }));

/** Group calling (issue 15): paths under /api/frontend/groupcall/ (thin: the seat-task services with mode 1). */
export const groupcallRoutes =
  (rt: CallRuntime, state: GroupDialerState): FastifyPluginAsyncZod =>
  async (app) => {
    const kind: TaskKind = {
      prefix: P,
      tags,
      config: manageConfig,
      noun: '群呼任务',
      requireManaged: service.requireManaged,
      afterMove: (actor, id) => publishBoard(rt, state, actor.tenantId, id),
    };
    app.post(
      `${P}/create`,
      {
        schema: { tags, summary: '新建群呼任务', body: groupcallCreateBody, response: { 200: idEnvelope } },
        config: manageConfig,
      },
      async (req) => ok({ cmStid: await service.createGroupTask(app.db, req.actor, req.body) }, '添加成功'),
    );
    app.post(
      `${P}/edit`,
      {
        schema: { tags, summary: '编辑群呼任务（未开始或已暂停）', body: groupcallEditBody, response: { 200: idEnvelope } },
        config: manageConfig,
      },
      async (req) => ok({ cmStid: await service.editGroupTask(app.db, req.actor, req.body) }, '保存成功'),
    );
    taskDeleteRoute(app, kind);
    app.post(
      `${P}/list`,
      {
        schema: {
          tags,
          summary: '群呼任务列表',
          body: calltaskListBody,
          response: { 200: envelope(listOf(groupcallRowSchema)) },
        },
        config,
      },
      async (req) => ok(await service.listGroupTasks(app.db, req.actor, req.body)),
    );
    app.get(
      `${P}/board`,
      {
        schema: {
          tags,
          summary: '群呼实时看板',
          querystring: z.object({ cmStid: qId() }),
          response: { 200: envelope(groupcallBoardSchema) },
        },
        config,
      },
      async (req) => ok(await boardOf(app.db, state, req.actor, req.query.cmStid)),
    );
    taskMoveRoutes(app, rt, kind);
    app.post(
      `${P}/work`,
      { schema: { tags, summary: '坐席开始做群呼任务', body: calltaskIdBody, response: { 200: okEnvelope } }, config },
      async (req) => {
        await service.startWork(app.db, req.actor, req.body.cmStid);
        await publishBoard(rt, state, req.actor.tenantId, req.body.cmStid);
        return ok(null, '已开始');
      },
    );
    app.post(
      `${P}/unwork`,
      { schema: { tags, summary: '坐席停止做群呼任务', body: calltaskIdBody, response: { 200: okEnvelope } }, config },
      async (req) => {
        await service.stopWork(app.db, req.actor, req.body.cmStid);
        await publishBoard(rt, state, req.actor.tenantId, req.body.cmStid);
        return ok(null, '已停止');
      },
    );
  };
