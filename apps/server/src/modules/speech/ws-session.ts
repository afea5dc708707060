import WebSocket from 'ws';
import {
  pcmBytes,
  RecognizerError,
  type RecognizerError as RecognizerErrorT,
  type RecognizerEvent,
  type RecognizerSession,
  type RecognizerSessionOptions,
  type RecognizerTimeouts,
} from './recognizer';

// The life of one recognizer session over a WebSocket, shared by the adapters: connect (with a
// timeout), the protocol's start message(s), waiting for the service's go-ahead when the protocol
// has one, binary PCM frames, the stop message, the last result (with a timeout), errors once.
// An adapter says what to send and reads the service's text messages (`handle`).

export abstract class WsRecognizerSession implements RecognizerSession {
  private ws: WebSocket | undefined;
  private state: 'connecting' | 'started' | 'finishing' | 'done' = 'connecting';
  private finals: string[] = [];
  private opened: { resolve: () => void; reject: (e: RecognizerErrorT) => void } | undefined;
  private finished: { resolve: (text: string) => void; reject: (e: RecognizerErrorT) => void } | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    protected readonly options: RecognizerSessionOptions,
    private readonly timeouts: RecognizerTimeouts,
  ) {}

  /** the service's address and handshake headers */
  protected abstract target(): { url: string; headers?: Record<string, string> };
  /** sent when the socket opens */
  protected abstract startMessage(): string;
  /** sent by finish() after the last audio */
  protected abstract stopMessage(): string;
  /** true: audio waits for the service's go-ahead (`started()`); false: audio may follow the start message */
  protected abstract readonly waitsForStart: boolean;
  /** one text message of the service */
  protected abstract handle(message: string): void;

  /** Connects and starts; resolves once audio may be sent. */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.opened = { resolve, reject };
      this.arm(this.timeouts.connectMs, 'timeout', 'recognizer did not answer in time');
      const { url, headers } = this.target();
      let ws: WebSocket;
      try {
        ws = new WebSocket(url, { headers, handshakeTimeout: this.timeouts.connectMs });
      } catch (err) {
        this.fail(new RecognizerError('connect', `bad recognizer address: ${(err as Error).message}`));
        return;
      }
      this.ws = ws;
      ws.on('open', () => {
        ws.send(this.startMessage());
        if (!this.waitsForStart) this.started();
      });
      ws.on('message', (data, isBinary) => {
        if (isBinary || this.state === 'done') return;
        try {
          this.handle(data.toString());
        } catch (err) {
          this.fail(new RecognizerError('protocol', `unreadable recognizer message: ${(err as Error).message}`));
        }
      });
      ws.on('error', (err) => {
        const reason = this.state === 'connecting' ? 'connect' : 'closed';
        this.fail(new RecognizerError(reason, `recognizer connection: ${err.message}`));
      });
      ws.on('close', (code) => {
        if (this.state === 'finishing' && this.closeEndsFinish) return this.complete();
        this.fail(new RecognizerError('closed', `recognizer closed the connection (${code})`));
      });
    });
  }

  /** the service may take audio now */
  protected started() {
    if (this.state !== 'connecting') return;
    this.state = 'started';
    this.disarm();
    this.opened?.resolve();
  }

  /** a server close after finish() counts as the end (FunASR closes without a last message on some versions) */
  protected closeEndsFinish = false;

  protected emit(e: RecognizerEvent) {
    if (this.state === 'done') return;
    if (e.type === 'final' && e.text) this.finals.push(e.text);
    try {
      this.options.onEvent(e);
    } catch {
      // a listener's error is not the session's
    }
  }

  /** the service's last result arrived: finish() resolves */
  protected complete() {
    if (this.state === 'done') return;
    this.state = 'done';
    this.disarm();
    this.finished?.resolve(this.finals.join(''));
    this.ws?.close(1000);
  }

  protected fail(error: RecognizerErrorT) {
    if (this.state === 'done') return;
    const wasConnecting = this.state === 'connecting';
    this.state = 'done';
    this.disarm();
    this.ws?.terminate();
    if (wasConnecting) return this.opened?.reject(error);
    try {
      this.options.onEvent({ type: 'error', error });
    } catch {
      // a listener's error is not the session's
    }
    this.finished?.reject(error);
  }

  /** true once finish() or close() ran, or the session failed */
  protected get isOver() {
    return this.state === 'done' || this.state === 'finishing';
  }

  push(samples: Int16Array) {
    if (this.state !== 'started' || this.ws?.readyState !== WebSocket.OPEN) return;
    this.ws.send(pcmBytes(samples));
  }

  finish(): Promise<string> {
    if (this.state === 'done') return Promise.reject(new RecognizerError('closed', 'recognizer session already ended'));
    if (this.finished) return Promise.reject(new RecognizerError('closed', 'finish already called'));
    return new Promise((resolve, reject) => {
      this.finished = { resolve, reject };
      this.state = 'finishing';
      this.arm(this.timeouts.finishMs, 'timeout', 'recognizer gave no last result in time');
      this.ws?.send(this.stopMessage());
    });
  }

  close() {
    if (this.state === 'done') return;
    if (this.state === 'connecting') this.opened?.reject(new RecognizerError('closed', 'recognizer session closed'));
    this.state = 'done';
    this.disarm();
    this.ws?.terminate();
    this.finished?.reject(new RecognizerError('closed', 'recognizer session closed'));
  }

  private arm(ms: number, reason: 'timeout', message: string) {
    this.disarm();
    this.timer = setTimeout(() => this.fail(new RecognizerError(reason, message)), ms);
  }

  private disarm() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
