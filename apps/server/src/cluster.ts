/**
 * Starts the app as CLUSTER_WORKERS processes sharing PORT (node:cluster; the primary hands new
 * connections round-robin to the workers), or as the one process of main.ts when it is 1 (issue 25).
 *
 * Several processes are several instances of the app: they need PostgreSQL (PGlite belongs to one
 * process), Redis (REDIS_URL: the call sockets, revocations and events cross processes through it)
 * and the sim line (a SIP line binds one UDP port: run SIP instances as separate services instead).
 * Each worker gets INSTANCE_ID `<instance>-w<n>`, stable across its restarts, so a restarted worker
 * ends the calls its previous life held. The first worker starts alone (migrations, demo seed), the
 * others after it listens. A worker that dies is started again after a second; SIGTERM / SIGINT stop
 * every worker gracefully, then the primary.
 */
import cluster, { type Worker } from 'node:cluster';
import { loadConfig } from './config';

const config = loadConfig();

const clusterError = (): string | undefined => {
  if (!config.databaseUrl) return 'CLUSTER_WORKERS > 1 需要 DATABASE_URL（PostgreSQL；内嵌 PGlite 只能由一个进程打开）';
  if (!config.redisUrl) return 'CLUSTER_WORKERS > 1 需要 REDIS_URL（通话连接、会话撤销和事件要跨进程送达）';
  if (config.telephony !== 'sim') return 'CLUSTER_WORKERS > 1 只支持 TELEPHONY=sim；SIP 线路请每个实例单独部署';
  return undefined;
};

if (cluster.isPrimary && config.clusterWorkers > 1) {
  const problem = clusterError();
  if (problem) {
    console.error(`配置错误: ${problem}`);
    process.exit(1);
  }
  const workers = new Map<number, Worker>();
  let isStopping = false;
  const start = (index: number) =>
    new Promise<void>((resolve) => {
      const worker = cluster.fork({ INSTANCE_ID: `${config.instanceId}-w${index}`, CLUSTER_WORKERS: '1' });
      workers.set(index, worker);
      worker.once('listening', () => resolve());
      worker.once('exit', (code, signal) => {
        workers.delete(index);
        resolve();
        if (isStopping) {
          if (workers.size === 0) process.exit(0);
          return;
        }
        console.error(`worker ${index} exited (${signal ?? code}); starting it again`);
        setTimeout(() => void start(index), 1000);
      });
    });
  const stop = () => {
    if (isStopping) return;
    isStopping = true;
    if (workers.size === 0) process.exit(0);
    for (const w of workers.values()) w.process.kill('SIGTERM');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // the first worker applies the migrations and writes the demo seed alone
  await start(0);
  await Promise.all(Array.from({ length: config.clusterWorkers - 1 }, (_, i) => start(i + 1)));
  console.log(`${config.clusterWorkers} 个进程在端口 ${config.port} 上服务`);
} else {
  await import('./main');
}
