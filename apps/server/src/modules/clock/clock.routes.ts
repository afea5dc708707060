import { envelope, testClockSchema } from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clockOffsetMs, now, setClockOffsetMs } from '../../lib/clock';
import { ok } from '../../lib/reply';
import { formatDateTime } from '../../lib/time';

const tags = ['test'];
const clockBody = z.object({
  offsetSeconds: z
    .number()
    .int()
    .min(0)
    .max(400 * 86_400),
});

/** Tests only (CLOCK_CONTROL=1, never in production): move the business clock instead of sleeping. */
export const clockRoutes: FastifyPluginAsyncZod = async (app) => {
  const state = () => ok({ now: formatDateTime(now()), offsetSeconds: Math.round(clockOffsetMs() / 1000) });
  app.get(
    '/api/frontend/test/clock',
    { schema: { tags, summary: '测试时钟', response: { 200: envelope(testClockSchema) } }, config: { isPublic: true } },
    async () => state(),
  );
  app.post(
    '/api/frontend/test/clock',
    {
      schema: { tags, summary: '拨动测试时钟', body: clockBody, response: { 200: envelope(testClockSchema) } },
      config: { isPublic: true },
    },
    async (req) => {
      setClockOffsetMs(req.body.offsetSeconds * 1000);
      return state();
    },
  );
};
