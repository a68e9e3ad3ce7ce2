// The looks a quiz video's cards can have: colours, corner radii and the background's pattern, as
// data the quiz painter reads. Lengths are pixels on a 1080-pixel-wide frame; the painter scales them.
import type { QuizThemeId } from "./quiz.ts"

export interface QuizTheme {
  readonly id: QuizThemeId
  readonly name: string
  readonly background: {
    /** A gradient from the top of the frame to its bottom. */
    readonly top: string
    readonly bottom: string
    /**
     * Drawn over the gradient in `patternColour`: `rays` from the middle (a game show), `dots` in a
     * grid (polka dots), `grid` lines (a neon floor).
     */
    readonly pattern: "rays" | "dots" | "grid"
    readonly patternColour: string
    /** Soft round lights over the gradient: centre as shares of the frame, radius as a share of its width. */
    readonly glows: ReadonlyArray<{ readonly x: number; readonly y: number; readonly r: number; readonly colour: string }>
  }
  /** The question card, and the intro and outro cards. */
  readonly card: {
    readonly fill: string
    readonly border: string | null
    /** A shade under cards and rows, offset downwards (the raised look of a game button), or null. */
    readonly depth: string | null
    /** A blurred halo in the border's colour (neon), or null. */
    readonly glow: string | null
    readonly radius: number
    readonly text: string
    /** The line under the intro's title ("5 questions"). */
    readonly subtitle: string
  }
  /** The pill on the top edge of a card: "QUESTION 2 / 5", "QUIZ". */
  readonly label: { readonly fill: string; readonly text: string }
  readonly answer: {
    /** Row fills, taken in turn (A gets the first); one colour for all rows when there is one. */
    readonly fills: ReadonlyArray<string>
    readonly border: string | null
    readonly text: string
    /** The round letter badges, taken in turn like `fills`. */
    readonly badges: ReadonlyArray<string>
    readonly badgeText: string
    readonly radius: number
  }
  /** The right answer once revealed. */
  readonly correct: {
    readonly fill: string
    readonly text: string
    readonly badge: string
    readonly check: string
    /** A blurred halo around the row, or null. */
    readonly glow: string | null
  }
  /** Laid over the wrong answers as the right one is revealed, fading them into the background. */
  readonly dim: string
  readonly ring: {
    readonly disc: string
    readonly track: string
    readonly progress: string
    /** The progress arc in the last three seconds. */
    readonly urgent: string
    readonly text: string
  }
  readonly explanation: { readonly fill: string; readonly border: string | null; readonly text: string }
}

const classic: QuizTheme = {
  id: "classic",
  name: "Classic",
  background: {
    top: "#3D8BFF",
    bottom: "#1B3FCC",
    pattern: "rays",
    patternColour: "rgba(255,255,255,0.07)",
    glows: [{ x: 0.5, y: 0.42, r: 0.75, colour: "rgba(140,200,255,0.35)" }]
  },
  card: { fill: "#FFFFFF", border: null, depth: "rgba(8,20,90,0.35)", glow: null, radius: 44, text: "#14213D", subtitle: "#3D6BFF" },
  label: { fill: "#FFC928", text: "#14213D" },
  answer: {
    fills: ["#FFFFFF"],
    border: null,
    text: "#14213D",
    badges: ["#3D6BFF", "#FF5C8A", "#FFA928", "#12B5A6", "#8B5CF6", "#EF4444"],
    badgeText: "#FFFFFF",
    radius: 36
  },
  correct: { fill: "#22C55E", text: "#FFFFFF", badge: "#FFFFFF", check: "#16A34A", glow: null },
  dim: "rgba(27,63,204,0.55)",
  ring: { disc: "#FFFFFF", track: "#E4EAFF", progress: "#FFB800", urgent: "#FF3B3B", text: "#14213D" },
  explanation: { fill: "#FFF6D6", border: "#FFC928", text: "#14213D" }
}

const midnight: QuizTheme = {
  id: "midnight",
  name: "Midnight",
  background: {
    top: "#0B0C24",
    bottom: "#1A0B2E",
    pattern: "grid",
    patternColour: "rgba(120,90,255,0.10)",
    glows: [
      { x: 0.1, y: 0.12, r: 0.7, colour: "rgba(0,229,255,0.22)" },
      { x: 0.95, y: 0.85, r: 0.8, colour: "rgba(255,46,196,0.22)" }
    ]
  },
  card: { fill: "rgba(255,255,255,0.10)", border: "#00E5FF", depth: null, glow: "rgba(0,229,255,0.7)", radius: 32, text: "#FFFFFF", subtitle: "#00E5FF" },
  label: { fill: "#FF2EC4", text: "#FFFFFF" },
  answer: {
    fills: ["rgba(255,255,255,0.08)"],
    border: "rgba(160,140,255,0.55)",
    text: "#FFFFFF",
    badges: ["#00E5FF", "#FF2EC4", "#B388FF", "#FFE53B", "#00FFA3", "#FF8A3D"],
    badgeText: "#0B0C24",
    radius: 28
  },
  correct: { fill: "#00D67A", text: "#04140C", badge: "#04140C", check: "#00FF94", glow: "rgba(0,255,148,0.85)" },
  dim: "rgba(11,12,36,0.62)",
  ring: { disc: "#14123A", track: "rgba(255,255,255,0.14)", progress: "#00E5FF", urgent: "#FF2E6E", text: "#FFFFFF" },
  explanation: { fill: "rgba(0,229,255,0.12)", border: "#00E5FF", text: "#FFFFFF" }
}

const candy: QuizTheme = {
  id: "candy",
  name: "Candy",
  background: {
    top: "#FFB3D1",
    bottom: "#FF7EB6",
    pattern: "dots",
    patternColour: "rgba(255,255,255,0.28)",
    glows: [{ x: 0.5, y: 0.3, r: 0.7, colour: "rgba(255,240,248,0.45)" }]
  },
  card: { fill: "#FFFFFF", border: null, depth: "rgba(214,40,120,0.45)", glow: null, radius: 64, text: "#5A2346", subtitle: "#F2559A" },
  label: { fill: "#7C4DFF", text: "#FFFFFF" },
  answer: {
    fills: ["#CFF5E7", "#FFF1B8", "#E3D7FF", "#FFDCC7", "#CDEBFF", "#FFD1E8"],
    border: null,
    text: "#5A2346",
    badges: ["#2EC4A0", "#F5B400", "#8B6CFF", "#FF8A5C", "#3AA8F0", "#F2559A"],
    badgeText: "#FFFFFF",
    radius: 60
  },
  correct: { fill: "#2BCB77", text: "#FFFFFF", badge: "#FFFFFF", check: "#1FA862", glow: null },
  dim: "rgba(255,126,182,0.6)",
  ring: { disc: "#FFFFFF", track: "#FFE0EE", progress: "#7C4DFF", urgent: "#FF3D7F", text: "#5A2346" },
  explanation: { fill: "#FFFFFF", border: "#7C4DFF", text: "#5A2346" }
}

export const QUIZ_THEMES: ReadonlyArray<QuizTheme> = [classic, midnight, candy]

export const quizTheme = (id: QuizThemeId): QuizTheme => QUIZ_THEMES.find((t) => t.id === id)!
