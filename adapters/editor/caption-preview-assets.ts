// Where the caption preview's files are served: the server fills it in (editor-assets.ts), the browser
// module reads it (browser/caption-preview.ts). Plain data, so both type programs can import it.

export interface CaptionPreviewAssets {
  readonly workerUrl: string
  readonly wasmUrl: string
  readonly modernWasmUrl: string
  /**
   * Each caption family's font files (the export's own), by family name: the default font's are loaded
   * up front, another family's when a script first names it, so the page does not fetch them all.
   */
  readonly fonts: Readonly<Record<string, ReadonlyArray<string>>>
  /** The font the server's fontconfig falls back to for CJK text, loaded when a script first has some. */
  readonly cjkFallback: { readonly family: string; readonly url: string }
  /** Stands in for a family the script names but no font file provides, as fontconfig's pick does on the server. */
  readonly defaultFont: string
}
