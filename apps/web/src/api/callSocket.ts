import {
  CALL_LIMITS,
  CALL_MSG_TYPE,
  CALL_SOCKET_CLOSE_REPLACED,
  CALL_SOCKET_CLOSE_UNAUTHORISED,
  type CallClientFrame,
  type CallFrame,
  LOGIN_EXPIRED_CODE,
} from '@crm/contracts';
import { readToken } from '../stores/session';
import { handleLoginExpired } from './http';
import { reconnectDelay } from './reconnectDelay';
import { ui } from './ui-bridge';

type Listener = (frame: CallFrame) => void;

/**
 * The call socket /ws/call (SPEC §4, DESIGN §5): logs in when the server asks (msg_type 0),
 * beats every 30 s from a Web Worker, reconnects with back-off, shows error frames (msg_type 3)
 * and hands every frame to the listeners (the phone module takes dial progress 4 and incoming 5).
 * One instance per page; connected while signed in, closed when the session ends.
 */
class CallSocket {
  private ws: WebSocket | null = null;
  private worker: Worker | null = null;
  private attempt = 0;
  private retryTimer: number | undefined;
  /** false after disconnect() or a close code that forbids reconnecting */
  private isWanted = false;
  private readonly listeners = new Set<Listener>();

  subscribe(fn: Listener) {
    this.listeners.add(fn);
    return () => {
      this.listeners.delete(fn);
    };
  }

  get isOpen() {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  connect() {
    this.isWanted = true;
    if (this.ws || this.retryTimer !== undefined) return;
    if (!readToken()) return;
    const url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/ws/call`;
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.onmessage = (e) => this.onFrame(e.data);
    ws.onclose = (e) => this.onClosed(ws, e.code);
    // an error is always followed by close, where the reconnect is planned
    ws.onerror = () => undefined;
  }

  disconnect() {
    this.isWanted = false;
    window.clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.stopHeartbeat();
    const ws = this.ws;
    this.ws = null;
    if (ws && ws.readyState <= WebSocket.OPEN) ws.close(1000);
  }

  send(frame: CallClientFrame) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
  }

  private onFrame(raw: unknown) {
    let frame: CallFrame;
    try {
      frame = JSON.parse(String(raw)) as CallFrame;
    } catch {
      return;
    }
    // SPEC §8: 100002 on the socket ends the session (silently on the login page).
    if (frame.code === LOGIN_EXPIRED_CODE) {
      this.disconnect();
      handleLoginExpired();
      return;
    }
    switch (frame.msg_type) {
      case CALL_MSG_TYPE.askLogin: {
        const token = readToken();
        if (token) this.send({ type: 'login', token });
        else this.disconnect();
        return;
      }
      case CALL_MSG_TYPE.loginOk:
        this.attempt = 0;
        this.startHeartbeat();
        break;
      case CALL_MSG_TYPE.pong:
        return; // SPEC §4: ignored
      case CALL_MSG_TYPE.error:
        // SPEC §8: socket non-zero codes show their message (请勿多端登录, 呼叫超时! …)
        if (frame.msg) ui.message?.error(frame.msg);
        break;
    }
    for (const fn of this.listeners) fn(frame);
  }

  private onClosed(ws: WebSocket, code: number) {
    if (this.ws !== ws) return; // an old socket replaced by disconnect/connect
    this.ws = null;
    this.stopHeartbeat();
    if (code === CALL_SOCKET_CLOSE_UNAUTHORISED) {
      this.isWanted = false;
      handleLoginExpired();
      return;
    }
    // a second login took the seat over (请勿多端登录 was shown): this page stays quiet
    if (code === CALL_SOCKET_CLOSE_REPLACED) this.isWanted = false;
    if (!this.isWanted || !readToken()) return;
    const delay = reconnectDelay(this.attempt);
    this.attempt += 1;
    this.retryTimer = window.setTimeout(() => {
      this.retryTimer = undefined;
      if (this.isWanted) this.connect();
    }, delay);
  }

  private startHeartbeat() {
    if (!this.worker) {
      this.worker = new Worker(new URL('./heartbeat.worker.ts', import.meta.url), { type: 'module' });
      this.worker.onmessage = () => this.send({ type: 'heartbeat' });
    }
    this.worker.postMessage({ cmd: 'start', intervalMs: CALL_LIMITS.heartbeatMs });
  }

  private stopHeartbeat() {
    this.worker?.terminate();
    this.worker = null;
  }
}

export const callSocket = new CallSocket();
