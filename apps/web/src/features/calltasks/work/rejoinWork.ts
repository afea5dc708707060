import { CALL_MSG_TYPE } from '@crm/contracts';
import { callSocket } from '../../../api/callSocket';
import { ApiError, http } from '../../../api/http';
import { ui } from '../../../api/ui-bridge';

/**
 * Work mode lasts while the call socket the agent started it from lives (issue 22: no dialer counts
 * an agent whose page or server died). When the socket logs in again — a reconnect, a server
 * restart — the page joins again the task it was working (`work` on the new socket); when that is
 * refused (the task stopped, he was taken off it) it forgets the task and tells him to start again.
 */
export const rejoinWorkOnLogin = (opts: {
  /** the work route of the task kind, e.g. /api/frontend/calltask/work */
  path: string;
  /** the tasks this page works now */
  workingIds: () => number[];
  /** the task could not be joined again */
  onLost: (cmStid: number) => void;
}) =>
  callSocket.subscribe((frame) => {
    if (frame.msg_type !== CALL_MSG_TYPE.loginOk) return;
    for (const cmStid of opts.workingIds()) {
      http.post<unknown>(opts.path, { cmStid }, { silent: true }).catch((err: unknown) => {
        opts.onLost(cmStid);
        const why = err instanceof ApiError ? `（${err.message}）` : '';
        ui.message?.warning(`呼叫服务已重新连接，但未能继续工作${why}，请重新开始工作`);
      });
    }
  });

/** 115034: the server has no live call socket of this agent (CALLTASK_NO_SOCKET). */
const NO_SOCKET_CODE = 115034;
const LOGIN_WAIT_MS = 8_000;

/** Resolves at the call socket's next login, false after `ms` without one. */
const nextSocketLogin = (ms: number) =>
  new Promise<boolean>((resolve) => {
    const timer = window.setTimeout(() => {
      stop();
      resolve(false);
    }, ms);
    const stop = callSocket.subscribe((frame) => {
      if (frame.msg_type !== CALL_MSG_TYPE.loginOk) return;
      window.clearTimeout(timer);
      stop();
      resolve(true);
    });
  });

/**
 * 开始工作: `work` on the task; when the server does not see this page's call socket yet (the page
 * just opened, or it is reconnecting) it waits for the socket's login and tries once more.
 */
export const postWork = async <T>(path: string, cmStid: number): Promise<T> => {
  try {
    return await http.post<T>(path, { cmStid }, { silent: true });
  } catch (err) {
    if (err instanceof ApiError && err.code === NO_SOCKET_CODE) {
      callSocket.connect();
      if (await nextSocketLogin(LOGIN_WAIT_MS)) return http.post<T>(path, { cmStid });
    }
    if (err instanceof ApiError) ui.message?.error(err.message);
    throw err;
  }
};
