/**
 * Timings the real-time parts of the process report as they happen (issue 25): the bot's answer
 * latency and the lateness of the 20 ms RTP clock. The code that measures them knows nothing of
 * Prometheus; the metrics module listens here and keeps the histograms. Several apps in one process
 * (as tests build them) each hear every signal of the process, as there is one RTP clock.
 */
export type OpsSignal =
  /** seconds from the end of the customer's turn to the start of the bot's answer */
  | 'bot_turn_seconds'
  /** seconds an RTP tick of the shared 20 ms clock ran after its due time */
  | 'rtp_tick_late_seconds';

type Listener = (signal: OpsSignal, value: number) => void;

const listeners = new Set<Listener>();

export const emitOpsSignal = (signal: OpsSignal, value: number) => {
  for (const l of listeners) l(signal, value);
};

/** Listens to every signal; the answer stops listening. */
export const onOpsSignal = (listener: Listener) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};
