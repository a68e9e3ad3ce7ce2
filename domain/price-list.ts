// What every operation costs, in one table keyed by operation name: served at GET /v1/pricing and
// checked against the catalogue by a test (an operation without a row fails it). Amounts come from
// the rates in pricing.ts, never restated here, so the table and the charges cannot disagree.
import { Schema } from "effect"
import {
  BYOK_RENDER_CENTS_PER_MINUTE,
  CAPTION_CREDITS_PER_MINUTE,
  CLIP_SELECTION_CREDITS_PER_MINUTE,
  REFRAME_CREDITS_PER_MINUTE,
  FAKE_TEXT_SCREENSHOT_CREDITS,
  REMOVAL_ANALYSIS_CREDITS_PER_MINUTE,
  REMOVAL_WIPE_CREDITS_PER_MINUTE,
  RENDER_CREDITS_PER_MINUTE,
  SPEECH_CREDITS_PER_MINUTE
} from "./pricing.ts"
import { MICRODOLLARS_PER_CENT } from "./cash.ts"
import { FrameRate } from "./rules.ts"

export const PriceRow = Schema.Struct({
  item: Schema.String.annotations({ description: "What is paid for, e.g. `captions` or `render at 60 fps`; `request` for a free operation." }),
  amount: Schema.Int.annotations({ description: "The price of one `per`, in `currency`; 0 when free." }),
  currency: Schema.Literal("credits", "cents").annotations({
    description: "`credits` from the credit balance, or US `cents` from the cash balance (BYOK renders)."
  }),
  per: Schema.Literal("request", "minute of source", "minute of audio", "minute of output").annotations({
    description: "What `amount` is the price of."
  }),
  counted: Schema.Literal("per request", "per started minute", "per started second").annotations({
    description:
      "How a length is counted: `per started minute` charges whole minutes; `per started second` charges " +
      "`amount` / 60 per started second, the total rounded up to a whole credit or cent."
  }),
  rule: Schema.String.annotations({ description: "The price in words: when it is charged and what is refunded." })
}).annotations({ identifier: "PriceRow", description: "One thing an operation charges for." })
export type PriceRow = typeof PriceRow.Type

const freeRow = (rule: string): ReadonlyArray<PriceRow> => [
  { item: "request", amount: 0, currency: "credits", per: "request", counted: "per request", rule }
]

const READ = freeRow("free: a read")
const FREE_WRITE = freeRow("free")
const ADMIN = freeRow("admin, free: the operator's ADMIN_TOKEN calls it and no workspace is charged")

const REFUND = "refunded if the video fails"

const captions: PriceRow = {
  item: "captions",
  amount: CAPTION_CREDITS_PER_MINUTE,
  currency: "credits",
  per: "minute of source",
  counted: "per started minute",
  rule: `${CAPTION_CREDITS_PER_MINUTE} credits per started minute of source, charged when transcription starts; ${REFUND}`
}

/** Looking at the source for faces, `when` it is charged. */
const reframing = (when: string): PriceRow => ({
  item: "reframing",
  amount: REFRAME_CREDITS_PER_MINUTE,
  currency: "credits",
  per: "minute of source",
  counted: "per started minute",
  rule: `${REFRAME_CREDITS_PER_MINUTE} credits per started minute of source ${when}; ${REFUND}`
})

const REFRAMING_AT_CREATE = reframing(
  "when `reframe.mode` is `face` or `split` (the source is looked at for faces), charged when the looking starts; `center` and `fit` are free"
)

const speech = (what: string, when: string, refund: string): PriceRow => ({
  item: "speech",
  amount: SPEECH_CREDITS_PER_MINUTE,
  currency: "credits",
  per: "minute of audio",
  counted: "per started second",
  rule: `${SPEECH_CREDITS_PER_MINUTE} credits per minute of ${what}, counted per started second and rounded up to a ` +
    `whole credit, charged ${when}; ${refund}`
})

const dollars = (cents: number): string => `$${(cents / 100).toFixed(2)}`

/** Rendering: credits by frame rate, or cash with BYOK at any frame rate. `condition` says when a create renders. */
const render = (condition: string): ReadonlyArray<PriceRow> => [
  ...FrameRate.literals.map((fps): PriceRow => ({
    item: `render at ${fps} fps`,
    amount: RENDER_CREDITS_PER_MINUTE[fps],
    currency: "credits",
    per: "minute of output",
    counted: "per started second",
    rule: `${condition}${RENDER_CREDITS_PER_MINUTE[fps]} credits per minute of output at ${fps} fps, counted per ` +
      `started second and rounded up to a whole credit; needs a paid plan; ${REFUND}`
  })),
  {
    item: "render (BYOK)",
    amount: BYOK_RENDER_CENTS_PER_MINUTE,
    currency: "cents",
    per: "minute of output",
    counted: "per started second",
    rule: `${condition}with BYOK on, ${dollars(BYOK_RENDER_CENTS_PER_MINUTE)} per minute of output from the cash ` +
      `balance instead of credits, at any frame rate: ${BYOK_RENDER_CENTS_PER_MINUTE} cents x started seconds / 60, rounded up ` +
      `to a whole cent, then charged as exactly ${MICRODOLLARS_PER_CENT} micro-dollars per cent; ${REFUND}`
  }
]

const RENDER_ON_REQUEST = render("only with `render` in the request: ")

const NARRATION = speech("narration", "once it is spoken", REFUND)

/** Every operation of the catalogue, by name, with what it charges. */
export const PRICE_LIST: Readonly<Record<string, ReadonlyArray<PriceRow>>> = {
  createCaptionVideo: [captions, REFRAMING_AT_CREATE, ...RENDER_ON_REQUEST],
  createAiVideo: [NARRATION, ...RENDER_ON_REQUEST],
  createAiVideoV3: [NARRATION, ...RENDER_ON_REQUEST],
  createGameplayVideo: [NARRATION, ...RENDER_ON_REQUEST],
  createFakeTextVideo: [speech("the messages' speech", "once every message is spoken", REFUND), ...RENDER_ON_REQUEST],
  createQuizVideo: [speech("the quiz's speech", "once every card is spoken", REFUND), ...RENDER_ON_REQUEST],
  getVideo: READ,
  listVideos: READ,
  getVideoCaptions: READ,
  editVideoCaptions: FREE_WRITE,
  cancelVideo: freeRow("free; the credits charged for the cancelled work are refunded"),
  deleteVideoMedia: FREE_WRITE,
  listVideoDeliveries: READ,
  redeliverWebhookEvent: FREE_WRITE,
  listWebhookSecrets: READ,
  createWebhookSecret: FREE_WRITE,
  updateWebhookSecret: FREE_WRITE,
  deleteWebhookSecret: FREE_WRITE,
  renderVideo: [
    ...render(""),
    reframing("when a caption video was switched to `face` or `split` after it was made without looking at its faces (the render looks for them first, once), charged with the render when it is requested")
  ],
  listVoices: READ,
  listArtStyles: READ,
  uploadFile: FREE_WRITE,
  listFiles: READ,
  createFakeTextScreenshot: [{
    item: "screenshot",
    amount: FAKE_TEXT_SCREENSHOT_CREDITS,
    currency: "credits",
    per: "request",
    counted: "per request",
    rule: `${FAKE_TEXT_SCREENSHOT_CREDITS} credits per screenshot, charged when the png is stored; nothing is charged if it fails`
  }],
  createCaptionRemoval: [
    {
      item: "caption removal: finding text",
      amount: REMOVAL_ANALYSIS_CREDITS_PER_MINUTE,
      currency: "credits",
      per: "minute of source",
      counted: "per started minute",
      rule: `${REMOVAL_ANALYSIS_CREDITS_PER_MINUTE} credits per started minute of source, also when no text is found: the first ` +
        "minute when the removal is created (a short balance is a 402), the rest when detection starts; needs a paid plan (or BYOK); " +
        "refunded if the removal fails"
    },
    {
      item: "caption removal: wiping",
      amount: REMOVAL_WIPE_CREDITS_PER_MINUTE,
      currency: "credits",
      per: "minute of source",
      counted: "per started minute",
      rule: `${REMOVAL_WIPE_CREDITS_PER_MINUTE} credits per started minute of source, charged when the wipe starts; nothing ` +
        "when no text was found (the video completes unchanged); refunded if the removal fails"
    }
  ],
  getCaptionRemoval: READ,
  createClips: [
    { ...captions, rule: `${CAPTION_CREDITS_PER_MINUTE} credits per started minute of source, charged once when the whole source's transcription starts (the clip videos are not transcribed again); refunded if the clips record fails` },
    {
      item: "clip selection",
      amount: CLIP_SELECTION_CREDITS_PER_MINUTE,
      currency: "credits",
      per: "minute of source",
      counted: "per started minute",
      rule: `${CLIP_SELECTION_CREDITS_PER_MINUTE} credits per started minute of source, charged when the choosing starts; refunded if the clips record fails`
    },
    { ...REFRAMING_AT_CREATE, rule: `on each clip video, as for a caption video: ${REFRAMING_AT_CREATE.rule}` },
    ...render("on each clip video, only with `render` in the request: ")
  ],
  getClips: READ,
  textToSpeech: [speech("audio", "when the audio is made", "nothing is charged if it fails")],
  listCaptionTemplates: READ,
  createCaptionTemplate: FREE_WRITE,
  updateCaptionTemplate: FREE_WRITE,
  deleteCaptionTemplate: FREE_WRITE,
  getWorkspace: READ,
  getWorkspaceVocabulary: READ,
  setWorkspaceVocabulary: FREE_WRITE,
  listCreditLogs: READ,
  listBalanceLogs: READ,
  listProviderKeys: READ,
  putProviderKey: FREE_WRITE,
  deleteProviderKey: FREE_WRITE,
  getPricing: READ,
  createWorkspace: ADMIN,
  issueToken: ADMIN,
  revokeToken: ADMIN,
  setWebhookSecret: ADMIN,
  topUpCash: ADMIN,
  grantCredits: ADMIN,
  setPlan: ADMIN,
  setByok: ADMIN,
  createUser: ADMIN,
  addMember: ADMIN,
  getQueueStatus: ADMIN,
  retryJob: ADMIN
}
