import type { TrustProxy } from './config-addresses';

// The shape of the server's settings (config.ts builds it from the environment).

/** The S3-compatible bucket of STORAGE_DRIVER=s3 (lib/storage/s3.ts). */
export type S3Config = {
  /** empty: AWS S3 of `region` */
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** key prefix without a trailing slash; empty: keys at the bucket's root */
  prefix: string;
  forcePathStyle: boolean;
};

/** SPEECH_* settings; keys stay out of logs. */
export type SpeechConfig = {
  tts: { provider: 'espeak-wasm' | 'espeak' | 'http'; url: string; key: string; voice: string };
  asr: {
    provider: 'none' | 'funasr' | 'aliyun';
    url: string;
    appkey: string;
    accessKeyId: string;
    accessKeySecret: string;
    token: string;
  };
  endSilenceMs: number;
};

/** LEADS_* settings (modules/leads). `providerUrl` 'test-double': the fictional double in-process; '': none. */
export type LeadsConfig = {
  providerUrl: string;
  providerKey: string;
  providerSecret: string;
  tenantQps: number;
  globalQps: number;
  cacheTtlDays: number;
  searchCostFen: number;
  detailCostFen: number;
};

/** SMS_* settings (modules/contract/contract-sms.ts). */
export type SmsConfig = {
  provider: 'none' | 'aliyun';
  endpoint: string;
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templateCode: string;
};

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  redisUrl: string;
  /** INSTANCE_ID: stable across restarts of the same instance, so it ends the legs its previous life held */
  instanceId: string;
  /** CLUSTER_WORKERS: app processes the cluster launcher (cluster.ts) starts on PORT */
  clusterWorkers: number;
  telephony: 'sim' | 'sip';
  simSpeed: number;
  simTalkSeconds: number;
  /** sip line settings (TELEPHONY=sip), see deploy/telephony */
  sip: {
    internalSecret: string;
    wsUrl: string;
    domain: string;
    recordingDir: string;
    rpcUrl: string;
    /** call control: the app UA's UDP address and Kamailio's (host:port; optional for tests that build a config) */
    appAddr?: string;
    proxy?: string;
    /** SIP_MEDIA_THREAD: the legs' media in the media worker (telephony/sip/rtp/media-thread.ts); absent = on */
    mediaThread?: boolean;
  };
  /** where a company's LLM endpoint may point (modules/aibot/llm-url-policy.ts) */
  aibotLlm: { allowPrivate: boolean; allowHosts: string[] };
  /** offline speech (telephony/tts.ts: 线路测试, the dialer's message, the bot's espeak) and the M4A decoder */
  tts: { engine: 'wasm' | 'binary'; espeakBin: string; ffmpegBin?: string };
  /** the AI bot's speech (modules/speech/speech.ts builds the synthesizer, recognizer and detector settings) */
  speech: SpeechConfig;
  /** where file bytes live (lib/storage) */
  storage: { driver: 'local' } | { driver: 's3'; s3: S3Config };
  /** SMS_* (contract one-time codes); the secret stays out of logs */
  sms: SmsConfig;
  /** CONTRACT_KEY_SECRET: opens the companies' signing keys (modules/contract/pdf); never logged or sent */
  contractKeySecret: string;
  /** LEADS_* (lead search, modules/leads): the provider and its limits; the secret stays out of logs */
  leads: LeadsConfig;
  demoPassword: string;
  /** BILLING_OPERATOR_TOKEN: the platform operator's token for /api/operator/billing/* ('' = off) */
  billingOperatorToken: string;
  /** who may read GET /metrics besides loopback (modules/metrics): METRICS_ALLOW's networks, METRICS_TOKEN's bearer */
  metrics: { token: string; allow: string[] };
  /** Fastify's trustProxy (TRUST_PROXY): off by default, so X-Forwarded-For cannot be forged */
  trustProxy: TrustProxy;
  /** the call socket's lifecycle */
  callSocket: {
    /** a socket that has not logged in by then is closed */
    loginWaitMs: number;
    /** sockets not yet logged in, per client address (per instance) */
    maxUnauthenticatedPerAddress: number;
    /** the staff's last socket lost: the extension goes offline after this, unless a socket logs in again */
    lostGraceMs: number;
  };
  isProduction: boolean;
  nodeEnv: 'development' | 'production' | 'test';
  logLevel: string;
  /** per-request log lines (LOG_REQUESTS; off by default outside production, so a newcomer's console stays readable) */
  logRequests: boolean;
  webDist: string;
  /** Seed the demo company on start (never in production). */
  seedDemo: boolean;
  /** seed the demo company's history with it (never in production) */
  demoHistory: boolean;
  /** The test clock route is registered (never in production). */
  isClockControlled: boolean;
};
