// The part of @echogarden/espeak-ng-emscripten's API the eSpeak NG engine uses (the package ships no types).
declare module "@echogarden/espeak-ng-emscripten" {
  export interface EspeakEvent {
    readonly type: "list_terminated" | "word" | "sentence" | "mark" | "play" | "end" | "msg_terminated" | "phoneme" | "samplerate"
    /** 1-based, in Unicode code points of the text. */
    readonly text_position: number
    readonly word_length: number
    /** Milliseconds from the start of the synthesis. */
    readonly audio_position: number
    /** A phoneme's name (empty for a pause), a word's or sentence's number. */
    readonly id: string | number | undefined
  }

  export interface EspeakVoiceInfo {
    readonly name: string
    /** Such as `gmw/en-US`. */
    readonly identifier: string
    readonly languages: ReadonlyArray<{ readonly priority: number; readonly name: string }>
  }

  export interface ESpeakNGWorker {
    /** A voice identifier with an optional `+variant`; 0 on success. */
    set_voice(name: string): number
    get_samplerate(): number
    list_voices(): Array<EspeakVoiceInfo>
    /** Runs to the end before it returns; the callback gets 16-bit mono samples and their events, and returns true to stop. */
    synthesize(text: string, callback: (samples: Int16Array, events: Array<EspeakEvent>) => boolean): void
  }

  export interface EspeakModule {
    readonly eSpeakNGWorker: new () => ESpeakNGWorker
  }

  const load: () => Promise<EspeakModule>
  export default load
}
