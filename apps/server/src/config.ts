import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { parseAddressList, parseTrustProxy } from './config-addresses';
import type { Config } from './config-types';

export { parseAddressList, parseTrustProxy, type TrustProxy } from './config-addresses';

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().default(''),
  REDIS_URL: z.string().default(''),
  /** this app instance among several (call control: the owner of the legs it holds); default hostname:PORT */
  INSTANCE_ID: z
    .string()
    .regex(/^[\w.:-]{1,100}$/, '应为 1–100 个字母、数字或 _ . : -')
    .optional(),
  /** `npm run serve:cluster`: this many app processes on PORT (node cluster); 1 = one process (issue 25) */
  CLUSTER_WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  TELEPHONY: z.enum(['sim', 'sip']).default('sim'),
  /** sim line: its delays (ringing, answer, the customer's hang-up) run this many times faster */
  SIM_SPEED: z.coerce.number().positive().max(10_000).default(1),
  /** sim line: an answered customer hangs up after this many seconds if the agent has not */
  SIM_TALK_SECONDS: z.coerce.number().int().min(1).max(3600).default(45),
  DEMO_PASSWORD: z.string().min(6).default('demo123456'),
  /** development only: the demo company also gets a few months of history (orders, receipts, calls…) on its first start; 0 = the lean demo company (e2e) */
  DEMO_HISTORY: z.enum(['0', '1']).default('1'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** one log line per request (Fastify's incoming request / request completed): 1 on, 0 off; empty: on in production only */
  LOG_REQUESTS: z.enum(['', '0', '1']).default(''),
  /** Directory of the built SPA; served when it exists. */
  WEB_DIST: z.string().default('apps/web/dist'),
  /** sip line: shared secret Kamailio sends (X-Telephony-Secret) to the internal telephony routes */
  SIP_INTERNAL_SECRET: z.string().default(''),
  /** sip line: the SIP-over-WebSocket address and SIP domain the browser softphone registers to */
  SIP_WS_URL: z.string().default(''),
  SIP_DOMAIN: z.string().default(''),
  /** sip line: rtpengine's recording-dir (pcap recordings); empty: calls are not recorded */
  SIP_RECORDING_DIR: z.string().default(''),
  /** sip line: Kamailio's JSON-RPC over HTTP (…/RPC): the app ends dialogs the browser left; empty: it cannot */
  SIP_RPC_URL: z.string().default(''),
  /** sip line, call control: the app's own SIP UA (UDP host:port; Kamailio trusts this host plus the secret) */
  SIP_APP_ADDR: z
    .string()
    .regex(/^[0-9.]+:\d{1,5}$/)
    .default('127.0.0.1:5070'),
  /** sip line: the legs' RTP, 20 ms clock, prompts and voice detection in a worker thread (1), or in the main event loop (0) */
  SIP_MEDIA_THREAD: z.enum(['0', '1']).default('1'),
  /** sip line, call control: Kamailio's SIP/UDP address, where the app UA sends every request */
  SIP_PROXY: z
    .string()
    .regex(/^[0-9.]+:\d{1,5}$/)
    .default('127.0.0.1:5060'),
  /** SPEECH_TTS=espeak: Debian's espeak-ng binary (voice cmn-latn-pinyin) instead of the npm WASM build */
  TTS_ESPEAK_BIN: z.string().default('espeak-ng'),
  /** AI bot node recordings in M4A: decoded by ffmpeg (optional; WAV and MP3 are decoded in JS/WASM) */
  TTS_FFMPEG_BIN: z.string().default('ffmpeg'),
  /**
   * Speech synthesis (modules/speech, telephony/tts.ts, docs/ARCHITECTURE.md 语音): espeak-wasm (the npm
   * package espeak-ng, offline, nothing to install), espeak (Debian's binary, TTS_ESPEAK_BIN) or an
   * HTTP TTS gateway for the bot's prompts (线路测试 then uses espeak-wasm)
   */
  SPEECH_TTS: z.enum(['espeak-wasm', 'espeak', 'http']).default('espeak-wasm'),
  /** http: POST {text, voice, format, sample_rate} here with `Authorization: Bearer SPEECH_TTS_KEY`; the body is the audio */
  SPEECH_TTS_URL: z
    .string()
    .default('')
    .refine((v) => v === '' || /^https?:\/\/[^/]/.test(v), '应为 http:// 或 https:// 地址'),
  SPEECH_TTS_KEY: z.string().default(''),
  SPEECH_TTS_VOICE: z.string().max(100).default(''),
  /** the recognizer: none (the bot runs on keypad digits and silence), a FunASR runtime, or Alibaba Cloud NLS */
  SPEECH_ASR: z.enum(['none', 'funasr', 'aliyun']).default('none'),
  /** funasr: ws://host:10095; aliyun: wss://nls-gateway-cn-shanghai.aliyuncs.com/ws/v1 */
  SPEECH_ASR_URL: z
    .string()
    .default('')
    .refine((v) => v === '' || /^wss?:\/\/[^/]/.test(v), '应为 ws:// 或 wss:// 地址'),
  /** aliyun: the project's Appkey, and a RAM AccessKey the app makes its tokens with (or a fixed token, which expires) */
  SPEECH_ASR_APPKEY: z.string().default(''),
  SPEECH_ASR_AK_ID: z.string().default(''),
  SPEECH_ASR_AK_SECRET: z.string().default(''),
  SPEECH_ASR_TOKEN: z.string().default(''),
  /** the silence that ends a customer's turn (voice activity), ms */
  SPEECH_END_SILENCE_MS: z.coerce.number().int().min(200).max(3000).default(600),
  /** Which proxies' X-Forwarded-For is believed (client address for the login throttle and logs) */
  TRUST_PROXY: z
    .string()
    .default('')
    .refine((v) => parseTrustProxy(v) !== undefined, '应为 false、true、跳数或以逗号分隔的代理地址'),
  /** GET /metrics also answers `Authorization: Bearer <METRICS_TOKEN>` (at least 16 characters); empty: loopback and METRICS_ALLOW only */
  METRICS_TOKEN: z
    .string()
    .default('')
    .refine((v) => v === '' || v.length >= 16, '应至少 16 个字符'),
  /** billing (issue 27): the platform operator's token for /api/operator/billing/* (header x-operator-token, at least 24 characters); empty: that API is off (the CLI still works) */
  BILLING_OPERATOR_TOKEN: z
    .string()
    .default('')
    .refine((v) => v === '' || v.length >= 24, '应至少 24 个字符'),
  /** GET /metrics also answers these client addresses: a comma-separated list of addresses or CIDRs (loopback always) */
  METRICS_ALLOW: z
    .string()
    .default('')
    .refine((v) => parseAddressList(v) !== undefined, '应为以逗号分隔的 IP 地址或 CIDR 网段'),
  /** Where file bytes live: `local` (DATA_DIR/files) or `s3` (an S3-compatible bucket, S3_* below) */
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  /** s3: the service address (MinIO, Ceph, OSS…); empty = AWS S3 of S3_REGION */
  S3_ENDPOINT: z
    .string()
    .default('')
    .refine((v) => v === '' || /^https?:\/\/[^/]/.test(v), '应为 http:// 或 https:// 地址'),
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: z.string().default(''),
  S3_ACCESS_KEY_ID: z.string().default(''),
  S3_SECRET_ACCESS_KEY: z.string().default(''),
  /** s3: keys go under this folder of the bucket (`crm/prod` → `crm/prod/2026-11-<uuid>.png`) */
  S3_PREFIX: z
    .string()
    .default('')
    .transform((v) => v.replace(/^\/+|\/+$/g, ''))
    .refine((v) => v === '' || /^[\w.-]+(\/[\w.-]+)*$/.test(v), '应为以 / 分隔的文件夹名（字母、数字、_ . -）')
    .refine((v) => !v.split('/').some((part) => part === '.' || part === '..'), '不能含 . 或 .. 文件夹'),
  /** s3: bucket in the path (MinIO, Ceph) rather than in the host name (AWS, OSS); default: on when S3_ENDPOINT is set */
  S3_FORCE_PATH_STYLE: z.enum(['', 'true', 'false']).default(''),
  /** Tests only: lets POST /api/frontend/test/clock move the business clock. */
  CLOCK_CONTROL: z.enum(['0', '1']).default('0'),
  /** AI bot LLM endpoint (a tenant admin's URL): internal addresses refused unless 1 (all) or the host is listed */
  AIBOT_LLM_ALLOW_PRIVATE: z.enum(['0', '1']).default('0'),
  AIBOT_LLM_ALLOW_HOSTS: z.string().default(''),
  /** contract one-time codes (issue 26): `none` (sim line: the code is shown to the agent) or `aliyun` (阿里云短信 SendSms) */
  SMS_PROVIDER: z.enum(['none', 'aliyun']).default('none'),
  SMS_ENDPOINT: z
    .string()
    .default('https://dysmsapi.aliyuncs.com/')
    .refine((v) => /^https?:\/\/[^/]/.test(v), '应为 http:// 或 https:// 地址'),
  SMS_ACCESS_KEY_ID: z.string().default(''),
  SMS_ACCESS_KEY_SECRET: z.string().default(''),
  /** 短信签名 and the template of the code (its variable is ${code}) */
  SMS_SIGN_NAME: z.string().default(''),
  SMS_TEMPLATE_CODE: z.string().default(''),
  /** seals each company's contract signing key (AES-256-GCM), 16+ characters; unset in production: archiving is refused */
  CONTRACT_KEY_SECRET: z
    .string()
    .default('')
    .refine((v) => v === '' || v.length >= 16, '应至少 16 个字符'),
  /** lead search (issue 28): the company-data provider (企查查-style open API); `test-double` starts the fictional double in-process (not in production); empty: development → test-double, production → none */
  LEADS_PROVIDER_URL: z.string().default(''),
  /** the platform's AppKey/SecretKey, used by companies that set none of their own */
  LEADS_PROVIDER_KEY: z.string().default(''),
  LEADS_PROVIDER_SECRET: z.string().default(''),
  /** provider requests per second: per company, and for the whole instance */
  LEADS_PROVIDER_QPS: z.coerce.number().positive().max(100).default(5),
  LEADS_PROVIDER_GLOBAL_QPS: z.coerce.number().positive().max(1000).default(20),
  /** days a provider answer stays fresh in the registry (a company looked up twice costs once) */
  LEADS_CACHE_TTL_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** what a paid lookup costs, in 分: a name search, a details call */
  LEADS_SEARCH_COST_FEN: z.coerce.number().int().min(0).max(100000).default(10),
  LEADS_DETAIL_COST_FEN: z.coerce.number().int().min(0).max(100000).default(20),
});

export type { Config, LeadsConfig, S3Config, SmsConfig, SpeechConfig } from './config-types';

/** Parses the environment once; refuses to boot on bad values. The only reader of process.env. */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config => {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new Error(`配置错误: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  if (e.TELEPHONY === 'sip' && e.SIP_INTERNAL_SECRET.length < 16) {
    throw new Error('配置错误: TELEPHONY=sip 需要 SIP_INTERNAL_SECRET（至少 16 个字符）');
  }
  if (e.STORAGE_DRIVER === 's3') {
    const missing = (['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_REGION'] as const).filter((k) => !e[k]);
    if (missing.length > 0) throw new Error(`配置错误: STORAGE_DRIVER=s3 需要 ${missing.join('、')}`);
  }
  if (e.SMS_PROVIDER === 'aliyun') {
    const missing = (['SMS_ACCESS_KEY_ID', 'SMS_ACCESS_KEY_SECRET', 'SMS_SIGN_NAME', 'SMS_TEMPLATE_CODE'] as const).filter(
      (k) => !e[k],
    );
    if (missing.length > 0) throw new Error(`配置错误: SMS_PROVIDER=aliyun 需要 ${missing.join('、')}`);
  }
  if (isProduction && e.LEADS_PROVIDER_URL === 'test-double')
    throw new Error('配置错误: 生产环境不能使用企业数据服务的测试替身（LEADS_PROVIDER_URL=test-double）');
  if (e.SPEECH_TTS === 'http' && !e.SPEECH_TTS_URL) throw new Error('配置错误: SPEECH_TTS=http 需要 SPEECH_TTS_URL');
  if (e.SPEECH_ASR !== 'none' && !e.SPEECH_ASR_URL) throw new Error(`配置错误: SPEECH_ASR=${e.SPEECH_ASR} 需要 SPEECH_ASR_URL`);
  const hasAccessKey = Boolean(e.SPEECH_ASR_AK_ID && e.SPEECH_ASR_AK_SECRET);
  if (e.SPEECH_ASR === 'aliyun' && (!e.SPEECH_ASR_APPKEY || (!hasAccessKey && !e.SPEECH_ASR_TOKEN))) {
    throw new Error(
      '配置错误: SPEECH_ASR=aliyun 需要 SPEECH_ASR_APPKEY，以及 SPEECH_ASR_AK_ID 和 SPEECH_ASR_AK_SECRET（或 SPEECH_ASR_TOKEN）',
    );
  }
  if (isProduction && e.CLOCK_CONTROL === '1') throw new Error('配置错误: CLOCK_CONTROL 不能在生产环境开启');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    instanceId: e.INSTANCE_ID ?? `${os.hostname()}:${e.PORT}`,
    clusterWorkers: e.CLUSTER_WORKERS,
    telephony: e.TELEPHONY,
    simSpeed: e.SIM_SPEED,
    simTalkSeconds: e.SIM_TALK_SECONDS,
    sip: {
      internalSecret: e.SIP_INTERNAL_SECRET,
      wsUrl: e.SIP_WS_URL,
      domain: e.SIP_DOMAIN,
      recordingDir: e.SIP_RECORDING_DIR ? path.resolve(e.SIP_RECORDING_DIR) : '',
      rpcUrl: e.SIP_RPC_URL,
      appAddr: e.SIP_APP_ADDR,
      proxy: e.SIP_PROXY,
      mediaThread: e.SIP_MEDIA_THREAD === '1',
    },
    tts: {
      engine: e.SPEECH_TTS === 'espeak' ? 'binary' : 'wasm',
      espeakBin: e.TTS_ESPEAK_BIN,
      ffmpegBin: e.TTS_FFMPEG_BIN,
    },
    aibotLlm: {
      allowPrivate: e.AIBOT_LLM_ALLOW_PRIVATE === '1',
      allowHosts: e.AIBOT_LLM_ALLOW_HOSTS.split(/[\s,]+/)
        .map((h) =>
          h
            .trim()
            .toLowerCase()
            .replace(/^\[|\]$/g, ''),
        )
        .filter(Boolean),
    },
    speech: {
      tts: { provider: e.SPEECH_TTS, url: e.SPEECH_TTS_URL, key: e.SPEECH_TTS_KEY, voice: e.SPEECH_TTS_VOICE },
      asr: {
        provider: e.SPEECH_ASR,
        url: e.SPEECH_ASR_URL,
        appkey: e.SPEECH_ASR_APPKEY,
        accessKeyId: e.SPEECH_ASR_AK_ID,
        accessKeySecret: e.SPEECH_ASR_AK_SECRET,
        token: e.SPEECH_ASR_TOKEN,
      },
      endSilenceMs: e.SPEECH_END_SILENCE_MS,
    },
    storage:
      e.STORAGE_DRIVER === 's3'
        ? {
            driver: 's3',
            s3: {
              endpoint: e.S3_ENDPOINT,
              region: e.S3_REGION,
              bucket: e.S3_BUCKET,
              accessKeyId: e.S3_ACCESS_KEY_ID,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY,
              prefix: e.S3_PREFIX,
              forcePathStyle: e.S3_FORCE_PATH_STYLE === '' ? e.S3_ENDPOINT !== '' : e.S3_FORCE_PATH_STYLE === 'true',
            },
          }
        : { driver: 'local' },
    // development and tests: a fixed key (no real signing identity exists there); production sets its own
    contractKeySecret: e.CONTRACT_KEY_SECRET || (isProduction ? '' : 'development-only-contract-key'),
    sms: {
      provider: e.SMS_PROVIDER,
      endpoint: e.SMS_ENDPOINT,
      accessKeyId: e.SMS_ACCESS_KEY_ID,
      accessKeySecret: e.SMS_ACCESS_KEY_SECRET,
      signName: e.SMS_SIGN_NAME,
      templateCode: e.SMS_TEMPLATE_CODE,
    },
    leads: {
      providerUrl: e.LEADS_PROVIDER_URL || (isProduction ? '' : 'test-double'),
      providerKey: e.LEADS_PROVIDER_KEY,
      providerSecret: e.LEADS_PROVIDER_SECRET,
      tenantQps: e.LEADS_PROVIDER_QPS,
      globalQps: e.LEADS_PROVIDER_GLOBAL_QPS,
      cacheTtlDays: e.LEADS_CACHE_TTL_DAYS,
      searchCostFen: e.LEADS_SEARCH_COST_FEN,
      detailCostFen: e.LEADS_DETAIL_COST_FEN,
    },
    demoPassword: e.DEMO_PASSWORD,
    trustProxy: parseTrustProxy(e.TRUST_PROXY) ?? false,
    metrics: { token: e.METRICS_TOKEN, allow: parseAddressList(e.METRICS_ALLOW) ?? [] },
    billingOperatorToken: e.BILLING_OPERATOR_TOKEN,
    callSocket: { loginWaitMs: 5_000, maxUnauthenticatedPerAddress: 20, lostGraceMs: 30_000 },
    isProduction,
    nodeEnv: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    logRequests: e.LOG_REQUESTS === '' ? isProduction : e.LOG_REQUESTS === '1',
    webDist: path.resolve(e.WEB_DIST),
    seedDemo: !isProduction,
    demoHistory: !isProduction && e.DEMO_HISTORY === '1',
    isClockControlled: e.CLOCK_CONTROL === '1',
    ...overrides,
  };
};
