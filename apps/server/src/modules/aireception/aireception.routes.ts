import {
  aireceptionSaveBody,
  aireceptionSettingSchema,
  aireceptionSimCallBody,
  envelope,
  idBody,
  idEnvelope,
  listOf,
  okEnvelope,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/reply';
import type { CallRuntime } from '../calls/call-bus';
import type { SpeechKit } from '../speech/speech';
import * as service from './aireception.service';
import { simulateReceptionCall } from './aireception-sim';

const tags = ['aireception'];
const P = '/api/frontend/aireception';
const config = { menu: service.AIRECEPTION_MENU };

/**
 * AI接待 numbers (issue 16): list, add/edit, delete. The reception records are aicall/calls with
 * source 2. Without speech (issue 23) a number is not turned on and 模拟来电 is refused (116037).
 */
export const aireceptionRoutes =
  (rt: CallRuntime, kit: SpeechKit): FastifyPluginAsyncZod =>
  async (app) => {
    const requireSpeech = () => {
      if (!kit.synthesizer.isAvailable) throw new AppError('SPEECH_BOT_UNAVAILABLE');
    };
    app.get(
      `${P}/list`,
      { schema: { tags, summary: 'AI接待号码列表', response: { 200: envelope(listOf(aireceptionSettingSchema)) } }, config },
      async (req) => ok(await service.listSettings(app.db, req.actor)),
    );
    app.post(
      `${P}/save`,
      {
        schema: { tags, summary: '添加或编辑AI接待号码', body: aireceptionSaveBody, response: { 200: idEnvelope('id') } },
        config,
      },
      async (req) => {
        if (req.body.isEnabled === 1) requireSpeech();
        return ok({ id: await service.saveSetting(app.db, req.actor, req.body) }, '保存成功');
      },
    );
    app.post(
      `${P}/del`,
      { schema: { tags, summary: '删除AI接待号码', body: idBody, response: { 200: okEnvelope } }, config },
      async (req) => {
        await service.deleteSetting(app.db, req.actor, req.body.id);
        return ok(null, '删除成功');
      },
    );
    app.post(
      `${P}/simcall`,
      {
        schema: { tags, summary: '模拟来电（仅 sim 线路）', body: aireceptionSimCallBody, response: { 200: okEnvelope } },
        config,
      },
      async (req) => {
        requireSpeech();
        await simulateReceptionCall(rt, req.actor, req.body);
        return ok(null, '来电已发起，通话结束后可在接待记录中查看');
      },
    );
  };
