// The art styles an illustration can be drawn in: what an image model is told, and how the built-in illustrator paints.
import { Schema } from "effect"
import { HexColour } from "./hex-colour.ts"

/** The finish the built-in illustrator gives a style; an image model only sees `promptSuffix`. */
export type ArtTexture =
  | "watercolor-wash"
  | "cel-shading"
  | "halftone"
  | "clay"
  | "pixels"
  | "film-grain"
  | "retro-grid"
  | "paper-layers"

export interface ArtStyle {
  readonly id: string
  readonly name: string
  readonly description: string
  /**
   * Six hex colours by role, in this order: sky, horizon, far land, near land, accent (sun, lights,
   * hearts), highlight. The illustrator mixes shades from them, so a scene stays in the style's colours.
   */
  readonly palette: ReadonlyArray<string>
  /** Appended to the prompt for an image model, e.g. "in soft watercolor, wet edges, paper texture". */
  readonly promptSuffix: string
  readonly texture: ArtTexture
  /** Line colour around shapes, or null for none. */
  readonly outline: string | null
  /** Film or paper grain laid over the picture, 0 (none) to 1 (heavy). */
  readonly grain: number
}

export const ART_STYLES: ReadonlyArray<ArtStyle> = [
  {
    id: "watercolor",
    name: "Watercolor",
    description: "Soft translucent washes that bleed at the edges, on textured paper.",
    palette: ["#7AAEDF", "#F5D3B0", "#A7C4A0", "#5F8D6E", "#E07A5F", "#FBF6EC"],
    promptSuffix: "in soft watercolor, translucent washes, wet bleeding edges, visible paper texture, muted natural colours",
    texture: "watercolor-wash",
    outline: null,
    grain: 0.3
  },
  {
    id: "anime",
    name: "Anime",
    description: "Clean cel shading, a big saturated sky with towering clouds and a warm lens glow.",
    palette: ["#1F6FD1", "#A9DCFF", "#5A7FC0", "#2E9E58", "#FFB347", "#FFFFFF"],
    promptSuffix: "in anime style, clean cel shading, crisp line art, vivid saturated sky, dramatic clouds, lens glow, detailed background art",
    texture: "cel-shading",
    outline: "#1B2A4A",
    grain: 0.08
  },
  {
    id: "comic",
    name: "Comic",
    description: "Pop-art comic panel: bold black outlines, flat primaries and halftone dots.",
    palette: ["#FFC93C", "#FF7A3D", "#1C7C8C", "#0E4C5A", "#E8222E", "#FFF4D6"],
    promptSuffix: "as a pop-art comic book panel, bold black ink outlines, flat bright colours, Ben-Day halftone dots",
    texture: "halftone",
    outline: "#111111",
    grain: 0.1
  },
  {
    id: "clay-3d",
    name: "Clay 3D",
    description: "Soft rounded plasticine shapes with gentle shading, highlights and drop shadows.",
    palette: ["#C6B4E8", "#FCE4EC", "#9AD6C4", "#5BB59A", "#FF9A6C", "#FFFBF5"],
    promptSuffix: "as a claymation 3D render, soft rounded plasticine shapes, gentle studio lighting, soft shadows, pastel colours",
    texture: "clay",
    outline: null,
    grain: 0.12
  },
  {
    id: "pixel-art",
    name: "Pixel Art",
    description: "A retro 16-bit game scene: chunky pixels, a small palette and dithered gradients.",
    palette: ["#29366F", "#B13E53", "#5D275D", "#1A1C2C", "#FFCD75", "#F4F4F4"],
    promptSuffix: "as 16-bit pixel art, chunky pixels, limited retro palette, dithered gradients, no anti-aliasing",
    texture: "pixels",
    outline: null,
    grain: 0
  },
  {
    id: "noir",
    name: "Noir",
    description: "High-contrast black and white film still with deep shadows and a single red accent.",
    palette: ["#3C3C3C", "#A6A6A6", "#1F1F1F", "#0B0B0B", "#D7263D", "#EDEDED"],
    promptSuffix: "as a film noir still, high-contrast black and white, deep shadows, venetian blind light, film grain, a single red accent",
    texture: "film-grain",
    outline: null,
    grain: 0.7
  },
  {
    id: "vaporwave",
    name: "Vaporwave",
    description: "Eighties retro-futurism: a neon gradient sky, a striped sun and a glowing grid floor.",
    palette: ["#2B1055", "#FF6AD5", "#7A2CCF", "#16072E", "#FFD319", "#2DE2E6"],
    promptSuffix: "in vaporwave style, neon pink and purple gradient sky, striped retro sun, glowing wireframe grid, 80s synthwave",
    texture: "retro-grid",
    outline: "#2DE2E6",
    grain: 0.05
  },
  {
    id: "paper-cut",
    name: "Paper Cut",
    description: "Layered cut-paper shapes stacked in depth, each casting a soft shadow on the one behind.",
    palette: ["#F3E9D2", "#F4A259", "#5B8E7D", "#386641", "#BC4749", "#FFFDF7"],
    promptSuffix: "as layered paper-cut art, stacked cut paper shapes, soft drop shadows between layers, craft paper texture",
    texture: "paper-layers",
    outline: null,
    grain: 0.25
  }
]

/** An art style as the API shows it. */
export const ArtStyleRecord = Schema.Struct({
  id: Schema.String.annotations({ description: "The style's id, to pass as `artStyleId`, e.g. `watercolor`." }),
  name: Schema.String.annotations({ description: "A name to show people." }),
  description: Schema.String.annotations({ description: "What pictures in this style look like." }),
  palette: Schema.Array(HexColour).annotations({
    description: "The style's colours as #RRGGBB: sky, horizon, far land, near land, accent, highlight."
  }),
  promptSuffix: Schema.String.annotations({
    description: "What is appended to the prompt when an image model draws in this style."
  })
}).annotations({ identifier: "ArtStyle" })
export type ArtStyleRecord = typeof ArtStyleRecord.Type

/** The public record of a style (rendering hints stay inside). */
export const artStyleRecord = (style: ArtStyle): ArtStyleRecord => ({
  id: style.id,
  name: style.name,
  description: style.description,
  palette: style.palette,
  promptSuffix: style.promptSuffix
})
