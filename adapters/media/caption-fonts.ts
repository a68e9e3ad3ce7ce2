// The files of every caption font family (domain/caption-fonts.ts), in one place: the export's libass
// reads them through ffmpeg's `ass` filter and the editor's preview gets the very same bytes
// (adapters/editor/editor-assets.ts), so both draw alike.
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { basename, dirname, join } from "node:path"
import { CAPTION_FONT_FAMILIES, type CaptionFontFamily, type CaptionFontWeight } from "../../domain/caption-fonts.ts"
import { filterValue } from "./ffmpeg-process.ts"

export interface CaptionFontFile {
  readonly family: CaptionFontFamily
  readonly weight: CaptionFontWeight
  readonly path: string
}

/** The npm package (static TTFs, nothing downloaded at run time) and file stem of each family but DejaVu. */
const NPM_FONTS: Readonly<Record<Exclude<CaptionFontFamily, "DejaVu Sans">, { readonly pkg: string; readonly stem: string }>> = {
  "Montserrat": { pkg: "@expo-google-fonts/montserrat", stem: "Montserrat" },
  "Poppins": { pkg: "@expo-google-fonts/poppins", stem: "Poppins" },
  "Roboto": { pkg: "@expo-google-fonts/roboto", stem: "Roboto" },
  "Noto Sans": { pkg: "@expo-google-fonts/noto-sans", stem: "NotoSans" },
  "Bebas Neue": { pkg: "@expo-google-fonts/bebas-neue", stem: "BebasNeue" },
  "Caveat": { pkg: "@expo-google-fonts/caveat", stem: "Caveat" },
  "Playfair Display": { pkg: "@expo-google-fonts/playfair-display", stem: "PlayfairDisplay" }
}

const NPM_FACES: Readonly<Record<CaptionFontWeight, string>> = { regular: "400Regular", bold: "700Bold" }

/** Debian's fonts-dejavu-core, the faces fontconfig picks for "DejaVu Sans" and "DejaVu Sans:bold". */
const DEJAVU: Readonly<Record<CaptionFontWeight, string>> = {
  regular: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
  bold: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
}

const modules = createRequire(import.meta.url)

const fileOf = (family: CaptionFontFamily, weight: CaptionFontWeight): string => {
  if (family === "DejaVu Sans") return DEJAVU[weight]
  const { pkg, stem } = NPM_FONTS[family]
  return join(dirname(modules.resolve(`${pkg}/package.json`)), NPM_FACES[weight], `${stem}_${NPM_FACES[weight]}.ttf`)
}

/** Every shipped face of every family, in the catalogue's order. */
export const CAPTION_FONT_FILES: ReadonlyArray<CaptionFontFile> = CAPTION_FONT_FAMILIES.flatMap(({ family, weights }) =>
  weights.map((weight) => ({ family, weight, path: fileOf(family, weight) })))

/**
 * Debian's fonts-droid-fallback: none of the families has CJK glyphs, and on the server fontconfig
 * falls back to this file for them; the preview loads it for a script with CJK text.
 */
export const CJK_FALLBACK_FONT = {
  family: "Droid Sans Fallback",
  path: "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"
} as const

let fontsDir: string | undefined

/**
 * libass loads every file of the `ass` filter's `fontsdir` (not its subfolders), and fontconfig does
 * not know the npm files: one folder per process, of links to them, made on first use (and again if a
 * temp cleaner took it). DejaVu and the CJK fallback stay with fontconfig, which finds the same files.
 */
const captionFontsDir = (): string => {
  if (fontsDir !== undefined && existsSync(fontsDir)) return fontsDir
  const dir = mkdtempSync(join(tmpdir(), "reelwright-caption-fonts-"))
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }))
  for (const { family, path } of CAPTION_FONT_FILES) {
    if (family !== "DejaVu Sans") symlinkSync(path, join(dir, basename(path)))
  }
  fontsDir = dir
  return dir
}

/** ffmpeg's filter burning the ASS script at `assPath` with the caption fonts. */
export const assFilter = (assPath: string): string =>
  `ass=filename=${filterValue(assPath)}:fontsdir=${filterValue(captionFontsDir())}`
