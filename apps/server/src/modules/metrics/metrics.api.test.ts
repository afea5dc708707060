import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { emitOpsSignal } from '../../lib/ops-signals';
import { createTestApp, type TestApp } from '../../test/harness';

/** Issue 25: GET /metrics in Prometheus text, for loopback, the allowed networks or the bearer token only. */

const TOKEN = 'metrics-token-0123456789';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { metrics: { token: TOKEN, allow: ['10.1.0.0/16', '2001:db8::/32'] } } });
});
afterAll(async () => {
  await t.close();
});

const scrape = (remoteAddress?: string, authorization?: string) =>
  t.app.inject({
    method: 'GET',
    url: '/metrics',
    ...(remoteAddress ? { remoteAddress } : {}),
    headers: authorization ? { authorization } : {},
  });

describe('GET /metrics', () => {
  it('answers loopback with the process figures and the HTTP latency by route pattern', async () => {
    await t.get('/api/health');
    await t.get('/api/files/2026-11-secret-name.png');
    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(text).toMatch(
      /^crm_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status_class="2xx"\} [1-9]/m,
    );
    expect(text).toMatch(
      /^crm_http_request_duration_seconds_count\{method="GET",route="\/api\/files\/:name",status_class="4xx"\} 1/m,
    );
    expect(text).not.toContain('secret-name');
    for (const name of ['crm_jobs_queue', 'crm_jobs_running', 'crm_calls_in_progress', 'crm_call_legs_in_progress']) {
      expect(text).toContain(`# TYPE ${name} gauge`);
    }
    // the pool gauge exists on PostgreSQL only
    expect(text.includes('crm_db_pool_connections')).toBe(t.database.kind === 'postgres');
  });

  it('shows the durable queue per queue and state, and answers even when a figure fails', async () => {
    await t.app.queue.send('i25-metrics-probe', {});
    const text = (await scrape()).body;
    expect(text).toMatch(/^crm_jobs_queue\{queue="i25-metrics-probe",state="created"\} 1$/m);
    const spy = vi.spyOn(t.app.db, 'execute').mockRejectedValue(new Error('database gone'));
    try {
      const res = await scrape();
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('# TYPE crm_jobs_queue gauge');
      expect(res.body).not.toContain('i25-metrics-probe');
      expect(res.body).toMatch(/^crm_http_request_duration_seconds_count\{/m);
    } finally {
      spy.mockRestore();
    }
  });

  it('answers IPv4 loopback on a dual-stack socket, IPv6 loopback and the allowed networks', async () => {
    for (const address of ['::ffff:127.0.0.1', '::1', '10.1.200.7', '::ffff:10.1.0.1', '2001:db8::5']) {
      expect((await scrape(address)).statusCode, address).toBe(200);
    }
  });

  it('refuses anyone else with 403 and a Chinese message in the envelope', async () => {
    for (const address of ['203.0.113.9', '10.2.0.1', '::ffff:192.168.1.1', '2001:db9::1']) {
      const res = await scrape(address);
      expect(res.statusCode, address).toBe(403);
      expect(res.json()).toEqual({
        code: 100007,
        msg: '无权访问监控指标：仅限本机、已配置的网段或携带正确的访问令牌',
        data: null,
      });
    }
  });

  it('refuses a request relayed by a proxy TRUST_PROXY does not name, unless it carries the token', async () => {
    const relayed = (authorization?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { 'x-forwarded-for': '198.51.100.4', ...(authorization ? { authorization } : {}) },
      });
    expect((await relayed()).statusCode).toBe(403);
    expect((await relayed(`Bearer ${TOKEN}`)).statusCode).toBe(200);
  });

  it('answers the right bearer token from anywhere, and refuses a wrong one', async () => {
    const right = await scrape('203.0.113.9', `Bearer ${TOKEN}`);
    expect(right.statusCode).toBe(200);
    expect(right.body).toContain('crm_http_request_duration_seconds');
    expect((await scrape('203.0.113.9', 'Bearer wrong-token-0123456789')).statusCode).toBe(403);
    expect((await scrape('203.0.113.9', `Bearer ${TOKEN}x`)).statusCode).toBe(403);
    // a wrong token is refused from an allowed address too
    expect((await scrape('127.0.0.1', 'Bearer wrong-token-0123456789')).statusCode).toBe(403);
  });

  it("keeps the bot's answer latency and the RTP clock's lateness as histograms, and the dialer's gauges", async () => {
    const countOf = (text: string, name: string) => Number(new RegExp(`^${name}_count (\\d+)$`, 'm').exec(text)?.[1]);
    const bucketOf = (text: string, name: string, le: string) =>
      Number(new RegExp(`^${name}_bucket\\{le="${le}"\\} (\\d+)$`, 'm').exec(text)?.[1]);
    const before = (await scrape()).body;
    emitOpsSignal('bot_turn_seconds', 0.62);
    emitOpsSignal('bot_turn_seconds', 1.2);
    emitOpsSignal('rtp_tick_late_seconds', 0.003);
    const after = (await scrape()).body;
    expect(countOf(after, 'crm_bot_turn_latency_seconds') - countOf(before, 'crm_bot_turn_latency_seconds')).toBe(2);
    expect(
      bucketOf(after, 'crm_bot_turn_latency_seconds', '0.75') - bucketOf(before, 'crm_bot_turn_latency_seconds', '0.75'),
    ).toBe(1);
    expect(countOf(after, 'crm_rtp_tick_lateness_seconds') - countOf(before, 'crm_rtp_tick_lateness_seconds')).toBe(1);
    expect(
      bucketOf(after, 'crm_rtp_tick_lateness_seconds', '0.005') - bucketOf(before, 'crm_rtp_tick_lateness_seconds', '0.005'),
    ).toBe(1);
    for (const name of ['crm_dialer_ratio', 'crm_dialer_customers_today']) expect(after).toContain(`# TYPE ${name} gauge`);
  });

  it('is not in the OpenAPI document', async () => {
    const doc = (await t.get('/api/docs/json')).json();
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
  });
});

describe('GET /metrics without a token or allow-list, behind a trusted proxy', () => {
  it('judges the client X-Forwarded-For names, and ignores a bearer', async () => {
    const behind = await createTestApp({ config: { trustProxy: ['loopback'] } });
    const ask = (headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
      behind.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });
    try {
      expect((await ask({})).statusCode).toBe(200);
      expect((await ask({ 'x-forwarded-for': '127.0.0.1' })).statusCode).toBe(200);
      // relayed by the local proxy for a client outside
      expect((await ask({ 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(403);
      expect((await ask({ authorization: `Bearer ${TOKEN}` }, '10.1.0.1')).statusCode).toBe(403);
    } finally {
      await behind.close();
    }
  });
});
