import {
  contractDraftBody,
  contractDraftResultSchema,
  contractVerifySchema,
  envelope,
  fileResponse,
  signSubmitBody,
  signSubmitResultSchema,
  signTokenQuery,
  signViewSchema,
  UPLOAD_MAX_BYTES,
} from '@crm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/reply';
import { sendFile } from './contract.routes';
import { sendCode, signPdf, signView, submitSignature, type Visitor } from './contract-signing';
import { verifyContractPdf } from './contract-verify';

const tags = ['contract-public'];
const P = '/api/contract';

const visitorOf = (req: FastifyRequest): Visitor => ({ ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') });

/** Per client address: reading the page, asking for codes and signing (the OTP limits per signer come on top). */
const reading = { isPublic: true, rateLimit: { max: 60, timeWindow: '1 minute' } };
const writing = { isPublic: true, rateLimit: { max: 10, timeWindow: '1 minute' } };

/**
 * The customer's signing page and the verify page (issue 26): no login. A link token scopes every
 * call to one signer of one contract; nothing else of the company is reachable from here.
 */
export const contractPublicRoutes: FastifyPluginAsyncZod = async (app) => {
  const bus = () => app.calls?.bus;
  app.get(
    `${P}/sign/view`,
    {
      schema: {
        tags,
        summary: '签署页：合同信息（凭链接）',
        querystring: signTokenQuery,
        response: { 200: envelope(signViewSchema) },
      },
      config: reading,
    },
    async (req) => ok(await signView(app.db, req.query.token)),
  );
  app.get(
    `${P}/sign/pdf`,
    {
      schema: { tags, summary: '签署页：合同PDF（凭链接）', querystring: signTokenQuery, response: { 200: fileResponse } },
      config: reading,
    },
    async (req, reply) => {
      const f = await signPdf(app.db, app.config, req.query.token);
      return sendFile(reply, f.bytes, f.name, 'application/pdf');
    },
  );
  app.post(
    `${P}/draft`,
    {
      schema: {
        tags,
        summary: '确认合同信息并获取验证码（SPEC §7 contract draft {price, name, phone}）',
        body: contractDraftBody,
        response: { 200: envelope(contractDraftResultSchema) },
      },
      config: writing,
    },
    async (req) => ok(await sendCode(app.db, app.config, req.body, visitorOf(req)), '验证码已发送'),
  );
  app.post(
    `${P}/sign/submit`,
    {
      schema: {
        tags,
        summary: '签署（验证码 + 手写签名或输入姓名）',
        body: signSubmitBody,
        response: { 200: envelope(signSubmitResultSchema) },
      },
      config: writing,
    },
    async (req) => ok(await submitSignature(app.db, app.config, bus(), req.body, visitorOf(req)), '签署成功'),
  );
  app.post(
    `${P}/verify`,
    {
      schema: {
        tags,
        summary: '验证合同PDF（multipart {file}）',
        consumes: ['multipart/form-data'],
        response: { 200: envelope(contractVerifySchema) },
      },
      config: writing,
    },
    async (req) => {
      let buf: Buffer | undefined;
      for await (const part of req.parts({ limits: { fileSize: UPLOAD_MAX_BYTES, files: 1 } })) {
        if (part.type === 'file') {
          buf = await part.toBuffer().catch((err: { code?: string }) => {
            if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('UPLOAD_TOO_LARGE');
            throw err;
          });
        }
      }
      if (!buf) throw new AppError('CONTRACT_VERIFY_NOT_PDF');
      return ok(await verifyContractPdf(app.db, buf));
    },
  );
};
