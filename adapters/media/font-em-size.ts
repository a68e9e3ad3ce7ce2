// How big an em is at an ASS font size, from a TrueType/OpenType file's own tables: libass sizes a font
// as Windows does (the font size is the height from usWinAscent to usWinDescent), so text measured
// elsewhere (Skia on the server, the editor's canvas) must be set at `size * unitsPerEm / (winAscent + winDescent)`.
// Plain bytes in, so the server and the editor's browser code both use it.

/** Ems per unit of ASS font size: unitsPerEm (head) over usWinAscent + usWinDescent (OS/2); 1 when the tables are missing. */
export const emPerFontSize = (font: DataView): number => {
  const tables = new Map<string, number>()
  const count = font.getUint16(4)
  for (let i = 0; i < count; i++) {
    const record = 12 + i * 16
    const tag = String.fromCharCode(...[0, 1, 2, 3].map((k) => font.getUint8(record + k)))
    tables.set(tag, font.getUint32(record + 8))
  }
  const head = tables.get("head")
  const os2 = tables.get("OS/2")
  if (head === undefined || os2 === undefined) return 1
  const winHeight = font.getUint16(os2 + 74) + font.getUint16(os2 + 76)
  return winHeight > 0 ? font.getUint16(head + 18) / winHeight : 1
}
