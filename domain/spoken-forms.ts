// How an English written word is said, as the lowercase words a pronouncing dictionary holds: "42" is
// "forty two", "1999" "nineteen ninety nine", "3.5%" "three point five percent", "well-known" "well
// known". A recogniser aligning a script listens for these; the captions keep the word as written.

const ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
const SCALES: ReadonlyArray<readonly [number, string]> = [[1e12, "trillion"], [1e9, "billion"], [1e6, "million"], [1e3, "thousand"]]

const underHundred = (n: number): Array<string> =>
  n < 20 ? [ONES[n]!] : n % 10 === 0 ? [TENS[n / 10]!] : [TENS[Math.floor(n / 10)]!, ONES[n % 10]!]

const underThousand = (n: number): Array<string> =>
  n < 100 ? underHundred(n) : [ONES[Math.floor(n / 100)]!, "hundred", ...(n % 100 === 0 ? [] : underHundred(n % 100))]

/** A whole number as said: 1205 is "one thousand two hundred five". */
export const numberWords = (n: number): Array<string> => {
  if (n < 1000) return underThousand(n)
  for (const [scale, name] of SCALES) {
    if (n >= scale) {
      const rest = n % scale
      return [...numberWords(Math.floor(n / scale)), name, ...(rest === 0 ? [] : numberWords(rest))]
    }
  }
  return underThousand(n)
}

/** Years are said in pairs: 1999 "nineteen ninety nine", 1905 "nineteen oh five", 2024 "twenty twenty four". */
const yearWords = (n: number): Array<string> => {
  const low = n % 100
  if (n % 1000 < 10 && n >= 2000) return numberWords(n)
  return [...underHundred(Math.floor(n / 100)), ...(low === 0 ? ["hundred"] : low < 10 ? ["oh", ONES[low]!] : underHundred(low))]
}

const ORDINAL_OF: Readonly<Record<string, string>> = { one: "first", two: "second", three: "third", five: "fifth", eight: "eighth", nine: "ninth", twelve: "twelfth" }
const ordinal = (words: Array<string>): Array<string> => {
  const last = words.at(-1)!
  const said = ORDINAL_OF[last] ?? (last.endsWith("y") ? `${last.slice(0, -1)}ieth` : `${last}th`)
  return [...words.slice(0, -1), said]
}
const plural = (words: Array<string>): Array<string> => {
  const last = words.at(-1)!
  return [...words.slice(0, -1), last.endsWith("y") ? `${last.slice(0, -1)}ies` : last.endsWith("x") ? `${last}es` : `${last}s`]
}

const SYMBOLS: Readonly<Record<string, string>> = { "&": "and", "%": "percent", "+": "plus", "=": "equals", "@": "at", "#": "number" }
const CURRENCIES: Readonly<Record<string, readonly [string, string]>> = { $: ["dollar", "dollars"], "£": ["pound", "pounds"], "€": ["euro", "euros"] }

/** Digits (with thousands commas, a decimal part and an ordinal or plural ending) as said. */
const numeral = (digits: string, fraction: string | undefined, ending: string): Array<string> => {
  const whole = Number(digits.replace(/,/g, ""))
  if (!Number.isSafeInteger(whole)) return digits.replace(/\D/g, "").split("").map((d) => ONES[Number(d)]!)
  const isYear = fraction === undefined && !digits.includes(",") && digits.length === 4 && whole >= 1100 && whole < 2100 && ending !== "st" && ending !== "nd" && ending !== "rd" && ending !== "th"
  const said = isYear ? yearWords(whole) : numberWords(whole)
  const withFraction = fraction === undefined ? said : [...said, "point", ...fraction.split("").map((d) => ONES[Number(d)]!)]
  if (ending === "s") return plural(withFraction)
  return ending === "" ? withFraction : ordinal(withFraction)
}

const NUMBER = /^(\d[\d,]*)(?:\.(\d+))?(st|nd|rd|th|s|'s)?$/i

/** One piece of a word (letters, or a numeral with what clings to it) as said. */
const pieceWords = (piece: string): Array<string> => {
  const number = NUMBER.exec(piece)
  if (number !== null) return numeral(number[1]!, number[2], (number[3] ?? "").toLowerCase().replace("'", ""))
  // Letters and digits run together ("mp4", "covid19") are said apart.
  return Array.from(piece.matchAll(/\d+|[\p{L}']+/gu), (m) => m[0]).flatMap((run) =>
    /^\d/.test(run) ? numeral(run, undefined, "") : [run.toLowerCase().replace(/^'+|'+$/g, "")]
  ).filter((w) => w !== "")
}

/**
 * The spoken words of one written word, lowercase; [] when it says nothing (a dash, an emoji).
 * Currency signs come after the amount ("$5" is "five dollars"); symbols are words of their own.
 */
export const spokenForms = (written: string): ReadonlyArray<string> => {
  const word = written.normalize("NFKC").replace(/[\u2018\u2019\u02bc]/g, "'")
  const currency = Object.entries(CURRENCIES).find(([sign]) => word.replace(/^[("'[]+/, "").startsWith(sign))
  const out: Array<string> = []
  for (const part of word.split(/[-\u2010-\u2015/–—]+/)) {
    const [, lead = "", body = "", trail = ""] = /^([^\p{L}\p{N}]*)(.*?)([^\p{L}\p{N}]*)$/u.exec(part) ?? []
    for (const char of lead) if (SYMBOLS[char] !== undefined && char !== "%") out.push(SYMBOLS[char]!)
    // Inside the body, symbols split it: "R&D" is "r and d".
    for (const [i, chunk] of body.split(/([&+=@%])/).entries()) {
      if (i % 2 === 1) out.push(SYMBOLS[chunk]!)
      else out.push(...pieceWords(chunk.replace(/[^\p{L}\p{N},.']/gu, "")))
    }
    if (currency !== undefined && /\d/.test(body)) out.push(out.length === 1 && out[0] === "one" ? currency[1][0] : currency[1][1])
    for (const char of trail) if (SYMBOLS[char] !== undefined) out.push(SYMBOLS[char]!)
  }
  return out
}
