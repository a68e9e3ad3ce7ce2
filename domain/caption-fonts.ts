// The caption font families the service ships (open licences, files installed with it), as data: the
// editor offers these, and the export and the preview draw each with the same files.

export type CaptionFontWeight = "regular" | "bold"

export interface CaptionFont {
  readonly family: string
  readonly licence: string
  /** The faces shipped; libass slants or emboldens the others. */
  readonly weights: ReadonlyArray<CaptionFontWeight>
  readonly kind: "sans" | "display" | "handwritten" | "serif"
}

const OFL = "SIL Open Font License 1.1"
const BOTH: ReadonlyArray<CaptionFontWeight> = ["regular", "bold"]

export const CAPTION_FONT_FAMILIES = [
  { family: "DejaVu Sans", licence: "Bitstream Vera Fonts licence", weights: BOTH, kind: "sans" },
  { family: "Montserrat", licence: OFL, weights: BOTH, kind: "sans" },
  { family: "Poppins", licence: OFL, weights: BOTH, kind: "sans" },
  { family: "Roboto", licence: OFL, weights: BOTH, kind: "sans" },
  { family: "Noto Sans", licence: OFL, weights: BOTH, kind: "sans" },
  { family: "Bebas Neue", licence: OFL, weights: ["regular"], kind: "display" },
  { family: "Caveat", licence: OFL, weights: BOTH, kind: "handwritten" },
  { family: "Playfair Display", licence: OFL, weights: BOTH, kind: "serif" }
] as const satisfies ReadonlyArray<CaptionFont>

export type CaptionFontFamily = (typeof CAPTION_FONT_FAMILIES)[number]["family"]
