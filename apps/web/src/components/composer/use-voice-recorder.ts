import { useEffect, useRef, useState } from 'react';

export type RecorderState = 'idle' | 'recording';

/** Records from the microphone with MediaRecorder; `onDone` gets the audio and its length. */
export function useVoiceRecorder(
  onDone: (audio: Blob, durationMs: number) => void,
  onError: (message: string) => void,
) {
  const [state, setState] = useState<RecorderState>('idle');
  const [elapsedMs, setElapsedMs] = useState(0);
  const recorder = useRef<MediaRecorder | null>(null);
  const done = useRef(onDone);
  done.current = onDone;

  useEffect(
    () => () => {
      for (const track of recorder.current?.stream.getTracks() ?? []) track.stop();
    },
    [],
  );

  useEffect(() => {
    if (state !== 'recording') return;
    const started = Date.now();
    const timer = setInterval(() => setElapsedMs(Date.now() - started), 200);
    return () => clearInterval(timer);
  }, [state]);

  const start = async () => {
    if (state === 'recording') return;
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') {
      onError('Voice notes need a browser that can record audio');
      return;
    }
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      onError('Allow the microphone to record a voice note');
      return;
    }
    const mimeType = MediaRecorder.isTypeSupported('audio/webm;codecs=opus') ? 'audio/webm;codecs=opus' : '';
    const rec = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    const chunks: Blob[] = [];
    const startedAt = performance.now();
    rec.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    rec.onstop = () => {
      for (const track of stream.getTracks()) track.stop();
      recorder.current = null;
      setState('idle');
      setElapsedMs(0);
      const audio = new Blob(chunks, { type: rec.mimeType || 'audio/webm' });
      if (audio.size > 0) done.current(audio, performance.now() - startedAt);
    };
    recorder.current = rec;
    rec.start(250);
    setState('recording');
  };

  const stop = () => recorder.current?.stop();

  return { state, elapsedMs, start, stop };
}
