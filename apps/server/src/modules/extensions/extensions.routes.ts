import {
  envelope,
  idEnvelope,
  listOf,
  okEnvelope,
  sipAdminInfoSchema,
  sipBindPhoneBody,
  sipBindStaffBody,
  sipCreateBody,
  sipDefaultMyBody,
  sipDelBody,
  sipDeviceSecretBody,
  sipEditBody,
  sipInfoSchema,
  sipListQuery,
  sipMyListQuery,
  sipPhoneStateBody,
  sipRegisterStatusBody,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import { canUseMenu } from '../../plugins/auth';
import * as service from './extensions.service';

/** /call/sip: extension management (admins); /call/mysip: the caller's own extensions. */
export const SIP_ADMIN_MENU = '/call/sip';
const MY_MENU = '/call/mysip';
const tags = ['extensions'];

export const extensionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const line = app.config.telephony;

  app.get(
    '/api/frontend/call/siplist',
    {
      schema: {
        tags,
        summary: '分机列表（管理）',
        querystring: sipListQuery,
        response: { 200: envelope(listOf(sipAdminInfoSchema)) },
      },
      config: { menu: SIP_ADMIN_MENU },
    },
    async (req) => ok(await service.listSips(app.db, req.actor, req.query, line)),
  );
  app.post(
    '/api/frontend/call/sipcreate',
    {
      schema: { tags, summary: '新增分机', body: sipCreateBody, response: { 200: idEnvelope('cmSipid') } },
      config: { menu: SIP_ADMIN_MENU },
    },
    async (req) => ok({ cmSipid: await service.createSip(app.db, req.actor, req.body) }, '添加成功'),
  );
  app.post(
    '/api/frontend/call/sipedit',
    {
      schema: { tags, summary: '编辑分机（密码留空不修改）', body: sipEditBody, response: { 200: okEnvelope } },
      config: { menu: SIP_ADMIN_MENU },
    },
    async (req) => {
      await service.editSip(app.db, req.actor, req.body);
      return ok(null, '保存成功');
    },
  );
  app.post(
    '/api/frontend/call/sipdel',
    { schema: { tags, summary: '删除分机', body: sipDelBody, response: { 200: okEnvelope } }, config: { menu: SIP_ADMIN_MENU } },
    async (req) => {
      await service.deleteSip(app.db, req.actor, req.body.cmSipid);
      return ok(null, '删除成功');
    },
  );
  app.post(
    '/api/frontend/call/sipdevicesecret',
    {
      schema: {
        tags,
        summary: '重置设备密钥',
        body: sipDeviceSecretBody,
        response: { 200: envelope(z.object({ deviceSecret: z.string() })) },
      },
      config: { menu: SIP_ADMIN_MENU },
    },
    async (req) => ok({ deviceSecret: await service.renewDeviceSecret(app.db, req.actor, req.body.cmSipid) }),
  );
  app.post(
    '/api/frontend/call/sipbindstaff',
    {
      schema: { tags, summary: '分机绑定员工（cmSid 0 解绑）', body: sipBindStaffBody, response: { 200: okEnvelope } },
      config: { menu: SIP_ADMIN_MENU },
    },
    async (req) => {
      await service.bindStaff(app.db, req.actor, req.body);
      return ok(null, '操作成功');
    },
  );
  app.post(
    '/api/frontend/call/sipbindhone',
    {
      schema: { tags, summary: '分机绑定电话号码', body: sipBindPhoneBody, response: { 200: okEnvelope } },
      config: { menu: [SIP_ADMIN_MENU, MY_MENU] },
    },
    async (req) => {
      await service.bindPhone(app.db, req.actor, req.body, canUseMenu(req.actor, SIP_ADMIN_MENU));
      return ok(null, '操作成功');
    },
  );
  app.get(
    '/api/frontend/call/sipmylist',
    {
      schema: { tags, summary: '我的分机', querystring: sipMyListQuery, response: { 200: envelope(listOf(sipInfoSchema)) } },
      config: { menu: MY_MENU },
    },
    async (req) => ok(await service.listMySips(app.db, req.actor, req.query, line)),
  );
  app.post(
    '/api/frontend/call/sipdefaultmy',
    {
      schema: { tags, summary: '设为默认分机', body: sipDefaultMyBody, response: { 200: okEnvelope } },
      config: { menu: MY_MENU },
    },
    async (req) => {
      await service.setMyDefault(app.db, req.actor, req.body.cmSipid);
      return ok(null, '操作成功');
    },
  );
  // The header's extension area: every account reads and sets its own default extension.
  app.get(
    '/api/frontend/call/sipdefault',
    { schema: { tags, summary: '我的默认分机（无则 data 为 null）', response: { 200: envelope(sipInfoSchema.nullable()) } } },
    async (req) => ok(await service.myDefaultSip(app.db, req.actor, line, app.config.sip)),
  );
  app.post(
    '/api/frontend/call/sipdefaultphoneState',
    {
      schema: {
        tags,
        summary: '设置默认分机在线状态（0 离线 1 在线 2 忙线）',
        body: sipPhoneStateBody,
        response: { 200: okEnvelope },
      },
    },
    async (req) => {
      await service.setMyPhoneState(app.db, req.actor, req.body.phoneState);
      return ok(null, '操作成功');
    },
  );
  app.post(
    '/api/frontend/call/sipdefaultregisterStatus',
    {
      schema: {
        tags,
        summary: '上报默认分机注册状态（0 未注册 1 已注册 2 忙线 3 注册中 4 失败）',
        body: sipRegisterStatusBody,
        response: { 200: okEnvelope },
      },
    },
    async (req) => {
      await service.setMyRegisterStatus(app.db, req.actor, req.body.registerStatus);
      return ok(null, '操作成功');
    },
  );
};
