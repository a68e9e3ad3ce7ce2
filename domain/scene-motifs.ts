// A prompt's words -> what a picture of it shows: motifs, the time of day and a mood. Deterministic.
import { hashString } from "./seeded-random.ts"

export const MOTIFS = [
  "waves", "skyline", "trees", "night-sky", "peaks", "sun", "rain", "snow", "planets", "rising-chart",
  "hearts", "food", "road", "crowd", "desert", "flowers", "clouds", "birds", "boat", "fire", "music",
  "tech", "abstract", "hills"
] as const
export type Motif = typeof MOTIFS[number]

export type TimeOfDay = "dawn" | "day" | "sunset" | "night"
export type Mood = "calm" | "lively" | "dramatic" | "cozy"

export interface ScenePlan {
  /** Each at most once, in the order the prompt names them, then those they imply. */
  readonly motifs: ReadonlyArray<Motif>
  readonly timeOfDay: TimeOfDay
  readonly mood: Mood
}

const KEYWORDS: ReadonlyArray<readonly [Motif, ReadonlyArray<string>]> = [
  ["waves", ["ocean", "sea", "beach", "wave", "surf", "coast", "shore", "island", "lake", "river", "water", "swim", "tide"]],
  ["skyline", ["city", "street", "building", "urban", "downtown", "town", "skyscraper", "office", "village", "house", "home", "apartment", "tower", "bridge"]],
  ["trees", ["forest", "tree", "park", "wood", "woods", "jungle", "nature", "pine", "camping", "hike", "hiking", "autumn", "fall"]],
  ["night-sky", ["night", "moon", "star", "midnight", "moonlight", "starry", "dream"]],
  ["peaks", ["mountain", "peak", "alps", "climb", "summit", "valley", "adventure", "volcano"]],
  ["sun", ["sun", "summer", "sunny", "sunrise", "sunset", "hot", "heat", "sunshine", "bright", "morning"]],
  ["rain", ["rain", "storm", "thunder", "lightning", "umbrella", "rainy", "stormy", "wet"]],
  ["snow", ["snow", "winter", "christmas", "ice", "cold", "frozen", "snowy", "ski"]],
  ["planets", ["space", "planet", "galaxy", "rocket", "astronaut", "cosmos", "universe", "orbit", "alien", "mars", "nasa"]],
  ["rising-chart", ["money", "business", "growth", "finance", "stock", "invest", "investing", "profit", "startup", "sales", "marketing", "crypto", "income", "revenue", "success", "career", "economy", "wealth"]],
  ["hearts", ["love", "heart", "romance", "romantic", "wedding", "valentine", "date", "kiss", "couple", "crush"]],
  ["food", ["food", "cook", "cooking", "recipe", "coffee", "pizza", "eat", "kitchen", "dinner", "breakfast", "lunch", "cake", "tea", "restaurant", "meal", "bake", "soup"]],
  ["road", ["car", "road", "drive", "driving", "travel", "trip", "highway", "journey", "truck", "traffic", "commute"]],
  ["crowd", ["people", "crowd", "friend", "family", "team", "party", "community", "audience", "fan", "student", "school", "kid", "child", "person", "man", "woman"]],
  ["desert", ["desert", "sand", "dune", "cactus", "egypt", "sahara", "dry", "western"]],
  ["flowers", ["flower", "spring", "bloom", "garden", "rose", "meadow", "blossom", "tulip", "bee"]],
  ["clouds", ["cloud", "sky", "cloudy", "wind", "air", "weather", "heaven"]],
  ["birds", ["bird", "fly", "flying", "freedom", "flight", "wing", "seagull", "eagle"]],
  ["boat", ["boat", "ship", "sail", "sailing", "fishing", "harbor", "harbour", "cruise", "pirate"]],
  ["fire", ["fire", "campfire", "flame", "burn", "burning", "bonfire", "cozy", "hearth"]],
  ["music", ["music", "song", "sing", "singing", "dance", "dancing", "beat", "guitar", "dj", "concert", "festival", "podcast", "piano"]],
  ["tech", ["tech", "technology", "ai", "computer", "code", "coding", "robot", "future", "digital", "data", "app", "software", "internet", "cyber", "game", "gaming", "phone"]],
  ["hills", ["hill", "countryside", "field", "farm", "grass", "rural", "meadow", "picnic"]],
  ["abstract", ["idea", "think", "mind", "mindset", "motivation", "creative", "art", "design", "abstract", "focus", "productivity", "habit", "tip", "fact", "secret", "story"]]
]

const TIME_WORDS: ReadonlyArray<readonly [TimeOfDay, ReadonlyArray<string>]> = [
  ["night", ["night", "midnight", "moon", "moonlight", "star", "starry", "dark", "evening", "nightlife", "space", "galaxy", "cosmos", "universe"]],
  ["sunset", ["sunset", "dusk", "golden", "twilight", "autumn"]],
  ["dawn", ["sunrise", "dawn", "morning", "breakfast", "early"]]
]

const MOOD_WORDS: ReadonlyArray<readonly [Mood, ReadonlyArray<string>]> = [
  ["dramatic", ["storm", "dark", "epic", "danger", "mystery", "war", "fear", "scary", "horror", "thunder", "lonely", "sad", "crime", "night"]],
  ["lively", ["busy", "party", "fun", "happy", "energy", "exciting", "fast", "celebrate", "festival", "crowd", "concert", "dance", "wild"]],
  ["cozy", ["cozy", "home", "warm", "love", "family", "coffee", "tea", "hug", "soft", "comfort"]],
  ["calm", ["quiet", "calm", "peaceful", "relax", "slow", "gentle", "serene", "meditation", "sleep", "still"]]
]

/** Motifs that make a foreground; without one the scene gets rolling hills to stand on (peaks are only far away). */
export const GROUND_MOTIFS: ReadonlyArray<Motif> = ["waves", "skyline", "desert", "road", "hills"]

/** Compositions for prompts that name nothing drawable, picked by the prompt's hash. */
const FALLBACKS: ReadonlyArray<ReadonlyArray<Motif>> = [
  ["abstract", "hills", "sun", "birds"],
  ["abstract", "peaks", "clouds"],
  ["abstract", "waves", "sun"],
  ["abstract", "hills", "trees", "clouds"]
]
const FALLBACK_TIMES: ReadonlyArray<TimeOfDay> = ["day", "sunset", "dawn", "day", "night"]

const MAX_NAMED_MOTIFS = 5

/** The word and its likely singular forms: "cities" -> city, "beaches" -> beach, "waves" -> wave. */
const forms = (word: string): ReadonlyArray<string> => {
  const out = [word]
  if (word.endsWith("ies")) out.push(`${word.slice(0, -3)}y`)
  if (word.endsWith("es")) out.push(word.slice(0, -2))
  if (word.endsWith("s") && !word.endsWith("ss")) out.push(word.slice(0, -1))
  return out
}

const promptWords = (prompt: string): ReadonlyArray<string> =>
  prompt.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 0)

/** The values of `table` whose keywords occur in the words, in the order the words first name them. */
const matches = <A>(words: ReadonlyArray<string>, table: ReadonlyArray<readonly [A, ReadonlyArray<string>]>) => {
  const found: Array<A> = []
  for (const word of words) {
    const candidates = forms(word)
    for (const [value, keywords] of table) {
      if (!found.includes(value) && candidates.some((c) => keywords.includes(c))) found.push(value)
    }
  }
  return found
}

const defaultMood = (motifs: ReadonlyArray<Motif>): Mood =>
  motifs.includes("rain") ? "dramatic"
  : motifs.some((m) => m === "crowd" || m === "music") ? "lively"
  : motifs.some((m) => m === "hearts" || m === "food" || m === "fire") ? "cozy"
  : "calm"

/** What to draw for a prompt. The same prompt always gives the same plan. */
export const planScene = (prompt: string): ScenePlan => {
  const words = promptWords(prompt)
  const named = matches(words, KEYWORDS).slice(0, MAX_NAMED_MOTIFS)
  const hash = hashString(words.join(" "))
  const fallback = named.length === 0
  const motifs: Array<Motif> = fallback ? [...FALLBACKS[hash % FALLBACKS.length]!] : named
  const timeOfDay = matches(words, TIME_WORDS)[0]
    ?? (motifs.includes("planets") || motifs.includes("night-sky") ? "night"
      : fallback ? FALLBACK_TIMES[(hash >>> 8) % FALLBACK_TIMES.length]!
      : "day")
  const add = (motif: Motif) => {
    if (!motifs.includes(motif)) motifs.push(motif)
  }
  if (motifs.includes("boat")) add("waves")
  if (motifs.includes("rain")) add("clouds")
  if (timeOfDay === "night") add("night-sky")
  else if (timeOfDay !== "day" && !motifs.includes("rain")) add("sun")
  if (!motifs.some((m) => GROUND_MOTIFS.includes(m)) && !motifs.includes("planets")) add("hills")
  const mood = matches(words, MOOD_WORDS)[0] ?? defaultMood(motifs)
  return { motifs, timeOfDay, mood }
}
