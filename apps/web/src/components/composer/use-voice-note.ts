import { toast } from '../../lib/toast.ts';
import { useVoiceRecorder } from './use-voice-recorder.ts';

/** Voice notes: a recording becomes a file of the composer, named by when it was made. */
export function useVoiceNote(addFile: (audio: Blob, name: string, durationMs: number) => void) {
  return useVoiceRecorder(
    (audio, durationMs) => {
      const stamp = new Date().toISOString().slice(0, 19).replaceAll(':', '-');
      addFile(audio, `voice-note-${stamp}.webm`, durationMs);
    },
    (message) => toast.error(message),
  );
}
