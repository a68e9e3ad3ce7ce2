// Where the caption preview's files are served: the server fills it in (editor-assets.ts), the browser
// module reads it (browser/caption-preview.ts). Plain data, so both type programs can import it.

export interface CaptionPreviewAssets {
  readonly workerUrl: string
  readonly wasmUrl: string
  readonly modernWasmUrl: string
  /** The font files the server's libass picks for the caption families, loaded up front. */
  readonly fonts: ReadonlyArray<string>
  /** Stands in for a family the script names but no font file provides, as fontconfig's pick does on the server. */
  readonly defaultFont: string
}
