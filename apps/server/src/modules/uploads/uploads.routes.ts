import {
  envelope,
  fileResponse,
  UPLOAD_MAX_BYTES,
  UPLOAD_MAX_FILES,
  type UploadResult,
  uploadAnswerSchema,
} from '@crm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/reply';
import { requireFileAccess } from './file-access';
import { checkSceneUploads } from './upload-scenes';
import * as service from './uploads.service';

export const uploadsRoutes: FastifyPluginAsyncZod = async (app) => {
  /** Reads up to 5 files (SPEC §5), checks every one, and only then stores them: a refused request keeps nothing. */
  const receive = async (req: FastifyRequest) => {
    const received: { name: string; buf: Buffer }[] = [];
    let scene = '';
    const parts = req.parts({ limits: { fileSize: UPLOAD_MAX_BYTES, files: UPLOAD_MAX_FILES + 1 } });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname === 'scene') scene = String(part.value).slice(0, 30);
        continue;
      }
      if (received.length >= UPLOAD_MAX_FILES) throw new AppError('UPLOAD_TOO_MANY');
      const buf = await part.toBuffer().catch((err: { code?: string }) => {
        if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('UPLOAD_TOO_LARGE');
        throw err;
      });
      received.push({ name: part.filename, buf });
    }
    if (received.length === 0) throw new AppError('UPLOAD_EMPTY');
    for (const file of received) await service.checkUpload(file.name, file.buf);
    // what the scene asks more (an AI bot node recording must convert for the line now, not fail a call later)
    await checkSceneUploads(app.config, scene, received);
    const stored: UploadResult[] = [];
    for (const file of received) stored.push(await service.saveUpload(app.db, app.config.dataDir, req.actor, { ...file, scene }));
    return ok({ ...stored[0], list: stored }, '上传成功');
  };
  const uploadSchema = {
    tags: ['uploads'],
    summary: '上传文件（multipart，字段 file，最多5个）',
    consumes: ['multipart/form-data'],
    response: { 200: envelope(uploadAnswerSchema) },
  };

  app.put('/api/v1/upload/file', { schema: uploadSchema }, receive);
  app.post('/api/frontend/upload/file', { schema: uploadSchema }, receive);

  app.get(
    '/api/files/:name',
    {
      schema: {
        tags: ['uploads'],
        summary: '下载本企业的文件',
        params: z.object({ name: z.string() }),
        response: { 200: fileResponse },
      },
    },
    async (req, reply) => {
      const access = await requireFileAccess(app.db, req.actor, req.params.name);
      const file = await service.openTenantFile(app.db, app.config.dataDir, req.actor, req.params.name);
      reply.header('Content-Type', file.mime);
      reply.header('Content-Length', file.size);
      reply.header('Cache-Control', 'private, max-age=86400');
      reply.header('Content-Disposition', `inline; filename*=UTF-8''${encodeURIComponent(access.downloadName ?? file.name)}`);
      return reply.send(file.stream);
    },
  );
};
