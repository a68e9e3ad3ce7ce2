// The benchmarks' results: one figure per measured quantity, printed as a table and written as JSON.
// Targets are reported, never asserted.
import { mkdir, writeFile } from "node:fs/promises"
import { resolve } from "node:path"

export interface Figure {
  readonly bench: string
  readonly name: string
  /** null when the measurement could not be taken (the note says why). */
  readonly value: number | null
  readonly unit: string
  readonly target?: { readonly atMost: number }
  readonly note?: string
}

const RESULTS_PATH = resolve(import.meta.dirname, "..", ".bench-out", "results.json")

export const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

const verdict = (f: Figure): string =>
  f.target === undefined ? "" : f.value === null ? "n/a" : f.value <= f.target.atMost ? "met" : "NOT met"

const shown = (value: number | null): string =>
  value === null ? "-" : Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2)

export const printTable = (figures: ReadonlyArray<Figure>): void => {
  const rows = figures.map((f) => [
    f.bench,
    f.name,
    shown(f.value),
    f.unit,
    f.target === undefined ? "" : `<= ${f.target.atMost}`,
    verdict(f),
    f.note ?? ""
  ])
  const header = ["bench", "figure", "value", "unit", "target", "result", "note"]
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((c, i) => (i === 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join("  ").trimEnd()
  console.log([line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n"))
}

export const writeResults = async (figures: ReadonlyArray<Figure>): Promise<string> => {
  await mkdir(resolve(RESULTS_PATH, ".."), { recursive: true })
  const withVerdicts = figures.map((f) => (f.target === undefined ? f : { ...f, met: verdict(f) === "met" }))
  await writeFile(RESULTS_PATH, JSON.stringify({ figures: withVerdicts }, null, 2) + "\n")
  return RESULTS_PATH
}

/** Prints the table and writes the JSON: the last thing every benchmark entry point does. */
export const report = async (figures: ReadonlyArray<Figure>): Promise<void> => {
  console.log("")
  printTable(figures)
  console.log(`\nfigures written to ${await writeResults(figures)}`)
}

/** True when the module was started as the script (`tsx bench/x.ts`), not imported by bench/run.ts. */
export const isEntryPoint = (moduleUrl: string): boolean =>
  process.argv[1] !== undefined && new URL(moduleUrl).pathname === resolve(process.argv[1])
