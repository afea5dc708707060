import { calltaskDelBody, calltaskIdBody, okEnvelope } from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { ok } from '../../lib/reply';
import type { CallRuntime } from '../calls/call-bus';
import * as seat from './calltasks.service';
import * as actions from './calltasks-actions';

/**
 * A kind of call task (坐席任务, 群呼任务, AI外呼任务: one task table, told apart by mode) as its own
 * routes see it: where they live, which menu opens them, and the guard that keeps another kind's
 * task out of them.
 */
export type TaskKind = {
  prefix: string;
  tags: string[];
  /** who may manage (create, move, delete) the kind's tasks: its menu, and menus it needs as well */
  config: { menu: string | string[]; alsoMenus?: string[] };
  /** the kind's name in the route summaries, e.g. 群呼任务 */
  noun: string;
  /** the task is of this kind and the caller manages it (throws the kind's not-found otherwise) */
  requireManaged: (db: Db, actor: Actor, id: number) => Promise<unknown>;
  /** a refusal before a move (an AI task cannot start or resume without speech) */
  beforeMove?: (move: 'start' | 'pause' | 'resume' | 'stop') => void;
  /** what follows a move besides the task's progress frame (the group board's) */
  afterMove?: (actor: Actor, id: number) => Promise<void>;
};

type App = Parameters<FastifyPluginAsyncZod>[0];

const MOVES = [
  ['start', '开始', '任务已开始'],
  ['pause', '暂停', '任务已暂停'],
  ['resume', '继续', '任务已继续'],
  ['stop', '停止', '任务已停止'],
] as const;

/** start / pause / resume / stop of one kind's tasks. */
export const taskMoveRoutes = (app: App, rt: CallRuntime, kind: TaskKind) => {
  for (const [move, verb, msg] of MOVES) {
    app.post(
      `${kind.prefix}/${move}`,
      {
        schema: { tags: kind.tags, summary: `${verb}${kind.noun}`, body: calltaskIdBody, response: { 200: okEnvelope } },
        config: kind.config,
      },
      async (req) => {
        const { cmStid } = req.body;
        await kind.requireManaged(app.db, req.actor, cmStid);
        kind.beforeMove?.(move);
        await actions.moveTask(rt, req.actor, cmStid, move);
        await kind.afterMove?.(req.actor, cmStid);
        return ok(null, msg);
      },
    );
  }
};

/** del: a task that is not running leaves the lists (soft delete). */
export const taskDeleteRoute = (app: App, kind: TaskKind) => {
  app.post(
    `${kind.prefix}/del`,
    {
      schema: {
        tags: kind.tags,
        summary: `删除${kind.noun}（进行中的不能删除）`,
        body: calltaskDelBody,
        response: { 200: okEnvelope },
      },
      config: kind.config,
    },
    async (req) => {
      const { cmStid } = req.body;
      await kind.requireManaged(app.db, req.actor, cmStid);
      await seat.deleteTask(app.db, req.actor, cmStid);
      return ok(null, '删除成功');
    },
  );
};
