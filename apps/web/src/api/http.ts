import { type Envelope, LIMITS, LOGIN_EXPIRED_CODE } from '@crm/contracts';
import { endSession, readToken } from '../stores/session';
import { dropEmpty } from './drop-empty';
import { warningOf } from './envelope-warning';
import { ui } from './ui-bridge';

// SPEC §8 messages of the client itself.
export const MSG_NETWORK = '网络接口错误，请稍后再试或联系管理员！';
export const MSG_TIMEOUT = '请求超时，请稍后再试！';
export const MSG_HTTP = '请求异常';
export const MSG_LOGIN_EXPIRED = '登录失效，请重新登录！';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

type Options = {
  /** the caller shows the error itself */
  silent?: boolean;
  /** send empty strings and nulls as they are (a document such as a 话术 graph, where '' and null are values) */
  keepEmpty?: boolean;
};

let expiredShown = false;
/** SPEC §8: 100002 or HTTP 401 → clear everything, one modal, then the login page. */
export const handleLoginExpired = (withModal = true) => {
  const onLogin = window.location.pathname === '/login';
  endSession();
  if (onLogin || !withModal || !ui.modal) {
    if (!onLogin) ui.navigate('/login');
    return;
  }
  if (expiredShown) return;
  expiredShown = true;
  ui.modal.warning({
    title: '提示',
    content: MSG_LOGIN_EXPIRED,
    okText: '重新登录',
    onOk: () => {
      expiredShown = false;
      ui.navigate('/login');
    },
  });
};

const showError = (msg: string, opts: Options) => {
  if (!opts.silent) ui.message?.error(msg);
};

const request = async <T>(method: string, url: string, body: unknown, opts: Options = {}): Promise<T> => {
  const controller = new AbortController();
  const timer = window.setTimeout(() => controller.abort(), LIMITS.requestTimeoutMs);
  // business refusals come back as HTTP 200 with code ≠ 0 (SPEC §7/§8), not as failed loads in the console
  const headers: Record<string, string> = { 'X-Refusal-In-Body': '1' };
  const token = readToken();
  if (token) headers.Authorization = token;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(opts.keepEmpty ? body : dropEmpty(body));
  }
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body: payload, credentials: 'include', signal: controller.signal });
  } catch (err) {
    const isTimeout = (err as Error).name === 'AbortError';
    const msg = isTimeout ? MSG_TIMEOUT : MSG_NETWORK;
    showError(msg, opts);
    throw new ApiError(msg, -1);
  } finally {
    window.clearTimeout(timer);
  }
  let json: Envelope<T> | undefined;
  try {
    json = (await res.json()) as Envelope<T>;
  } catch {
    json = undefined;
  }
  if (res.status === 401 || json?.code === LOGIN_EXPIRED_CODE) {
    handleLoginExpired();
    throw new ApiError(MSG_LOGIN_EXPIRED, LOGIN_EXPIRED_CODE);
  }
  if (!json || typeof json.code !== 'number') {
    showError(MSG_HTTP, opts);
    throw new ApiError(MSG_HTTP, res.status);
  }
  // SPEC §8: data {code: 1, msg} is a soft refusal, shown as a warning (whatever the envelope's code)
  const warning = warningOf(json.data);
  if (warning !== null) {
    if (!opts.silent) ui.message?.warning(warning);
    throw new ApiError(warning, 1, json.data);
  }
  if (json.code !== 0) {
    showError(json.msg || MSG_HTTP, opts);
    throw new ApiError(json.msg || MSG_HTTP, json.code, json.data);
  }
  return json.data;
};

const withQuery = (url: string, query?: Record<string, unknown>) => {
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(dropEmpty(query))) {
    if (Array.isArray(v)) for (const item of v) params.append(k, String(item));
    else params.set(k, String(v));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
};

export const http = {
  get: <T>(url: string, query?: Record<string, unknown>, opts?: Options) =>
    request<T>('GET', withQuery(url, query), undefined, opts),
  post: <T>(url: string, body: unknown = {}, opts?: Options) => request<T>('POST', url, body, opts),
  upload: <T>(url: string, form: FormData, opts?: Options) => request<T>('POST', url, form, opts),
};
