/**
 * SPEC §9: the call socket's 30 s heartbeat ticks in a worker, so a background tab's timer
 * throttling cannot starve it. The page sends 'start' (with the interval) or 'stop'.
 */
let timer: ReturnType<typeof setInterval> | undefined;

self.onmessage = (e: MessageEvent<{ cmd: 'start'; intervalMs: number } | { cmd: 'stop' }>) => {
  if (timer !== undefined) clearInterval(timer);
  timer = undefined;
  if (e.data.cmd === 'start') timer = setInterval(() => self.postMessage('tick'), e.data.intervalMs);
};
