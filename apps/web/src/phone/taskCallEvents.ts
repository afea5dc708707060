/**
 * The task calls of this page (seat tasks, issue 15): the server dials an agent's task numbers
 * itself, and the phone shows each as it shows a dial. SPEC §4: when a task call ends, a hang-up
 * event with code endCall follows after 1 s; the seats workbench's task panel listens here.
 */
export type TaskCallEvent =
  | { code: 'startCall'; uuid: string; yearMonth: string; cmStid: number }
  | { code: 'endCall'; uuid: string; yearMonth: string; cmStid: number; isAnswered: boolean };

type Listener = (event: TaskCallEvent) => void;
const listeners = new Set<Listener>();

export const onTaskCallEvent = (fn: Listener) => {
  listeners.add(fn);
  return () => {
    listeners.delete(fn);
  };
};

export const emitTaskCallEvent = (event: TaskCallEvent) => {
  for (const fn of listeners) fn(event);
};

/** SPEC §4: the endCall event follows a task call's end after this long. */
export const END_CALL_EVENT_DELAY_MS = 1_000;
