// A bare agent softphone for the call-control scenarios (bundled by esbuild into a page of the
// app's origin): JsSIP registers the extension over WebSocket and answers every incoming call
// after a short ring, as the agent who clicks 接听; it measures the far end's audio (peak
// frequency per 100 ms) and keeps the INVITE's X-Call-Uuid. State in window.__agent.
import JsSIP from 'jssip';
import type { RTCSession } from 'jssip/lib/RTCSession';

type Call = { uuid: string; from: string; events: string[]; peaks: number[]; active: number };
type AgentState = { registered: boolean; failed: string; calls: Call[] };
declare global {
  interface Window {
    __agent: AgentState;
    __startAgent: (cfg: { ws: string; user: string; pass: string; domain: string; answerMs: number }) => void;
  }
}

const listen = (stream: MediaStream, call: Call) => {
  const ctx = new AudioContext();
  const an = ctx.createAnalyser();
  an.fftSize = 4096;
  ctx.createMediaStreamSource(stream).connect(an);
  const td = new Float32Array(an.fftSize);
  const fd = new Float32Array(an.frequencyBinCount);
  const timer = setInterval(() => {
    an.getFloatTimeDomainData(td);
    an.getFloatFrequencyData(fd);
    let sum = 0;
    for (const v of td) sum += v * v;
    if (Math.sqrt(sum / td.length) < 0.01) return;
    call.active++;
    let best = 1;
    for (let i = 1; i < fd.length; i++) if ((fd[i] ?? -999) > (fd[best] ?? -999)) best = i;
    call.peaks.push(Math.round((best * ctx.sampleRate) / an.fftSize));
  }, 100);
  void ctx.resume();
  return () => {
    clearInterval(timer);
    void ctx.close();
  };
};

window.__agent = { registered: false, failed: '', calls: [] };
window.__startAgent = (cfg) => {
  const st = window.__agent;
  const ua = new JsSIP.UA({
    sockets: [new JsSIP.WebSocketInterface(cfg.ws)],
    uri: `sip:${cfg.user}@${cfg.domain}`,
    password: cfg.pass,
    register: true,
    session_timers: false,
  });
  ua.on('registered', () => {
    st.registered = true;
  });
  ua.on('registrationFailed', (e: { cause?: string }) => {
    st.failed = String(e.cause);
  });
  ua.on('newRTCSession', (e: { originator: string; session: RTCSession; request: { getHeader: (n: string) => string } }) => {
    if (e.originator !== 'remote') return;
    const session = e.session;
    const call: Call = {
      uuid: e.request.getHeader('X-Call-Uuid') ?? '',
      from: session.remote_identity.uri.toString(),
      events: ['incoming'],
      peaks: [],
      active: 0,
    };
    st.calls.push(call);
    let stop = () => {};
    session.on('peerconnection', (p: { peerconnection: RTCPeerConnection }) => {
      p.peerconnection.addEventListener('track', (ev) => {
        call.events.push('track');
        const stream = ev.streams[0] ?? new MediaStream([ev.track]);
        // Chromium feeds a remote WebRTC stream to WebAudio only while a media element plays it
        const audio = new Audio();
        audio.srcObject = stream;
        void audio.play().catch(() => {});
        stop = listen(stream, call);
      });
    });
    session.on('confirmed', () => call.events.push('confirmed'));
    session.on('reinvite', () => call.events.push('reinvite'));
    session.on('ended', () => {
      call.events.push('ended');
      stop();
    });
    session.on('failed', (f: { cause?: string }) => call.events.push(`failed:${f.cause}`));
    setTimeout(() => session.answer({ mediaConstraints: { audio: true, video: false } }), cfg.answerMs);
  });
  ua.start();
};
