// POST /v1/quiz-videos, tool create_quiz_video: an intro card, then each question read aloud with its
// answers appearing, a ticking countdown and the right answer revealed with a chime (its explanation
// read when given), then an outro card. Over the theme's background, a colour, an upload or gameplay.
import { Effect, Schema } from "effect"
import { InvalidInput } from "../../../domain/errors.ts"
import { AspectRatio, type QuizVisuals } from "../../../domain/generated-project.ts"
import { speechPriceText } from "../../../domain/pricing.ts"
import { DEFAULT_COUNTDOWN_SECONDS, DEFAULT_INTRO, DEFAULT_OUTRO, QuizFields, quizProblem } from "../../../domain/quiz.ts"
import { operation } from "../../kernel/operation.ts"
import { CreatedVideo } from "../caption-video/create-caption-video.ts"
import { BackdropField, resolveBackdrop } from "../generated-video/parts/backdrop-field.ts"
import { GeneratedVideoFields, startGeneratedVideo } from "../generated-video/parts/start-generated-video.ts"
import { getVideo } from "../videos/get-video.ts"

export const createQuizVideo = operation({
  name: "createQuizVideo",
  summary: "Create a quiz video",
  description:
    "Builds a quiz video: an intro card (`title`, read aloud), then for each question: the question is read, its answers " +
    "appear one by one (A, B, C...), a countdown runs with a ticking sound, the right answer is revealed (highlight and " +
    "chime) and its `explanation`, when given, is read; then an outro card. The video lasts as long as that takes. Themes: " +
    "`classic`, `midnight`, `candy`; `background` replaces the theme's with a colour, an upload or built-in gameplay. " +
    `Costs ${speechPriceText("speech")}; ` +
    "rendering is charged as usual. Returns at once with status `processing`.",
  path: Schema.Struct({}),
  payload: Schema.Struct({
    ...QuizFields,
    voiceId: Schema.optional(Schema.String.annotations({ description: "The voice that reads the quiz, from GET /v1/voices; default the first one." })),
    background: Schema.optional(BackdropField),
    captions: Schema.optionalWith(Schema.Boolean.annotations({
      description: "Burn captions of what is read in the template's style; default false (the cards already show the words)."
    }), { default: () => false }),
    aspectRatio: Schema.optional(AspectRatio),
    ...GeneratedVideoFields
  }),
  output: CreatedVideo,
  errors: ["InvalidInput", "PlanForbids"],
  http: { method: "POST", path: "/v1/quiz-videos" },
  access: "workspace",
  tool: "create_quiz_video",
  openWorld: true,
  cli: "quiz",
  idempotent: true,
  readBack: getVideo,
  handle: ({ title, questions, outro, countdownSeconds, theme, voiceId, background, captions, aspectRatio, ...request }) =>
    Effect.gen(function*() {
      const problem = quizProblem(questions)
      if (problem !== null) return yield* new InvalidInput(problem)
      const quiz = {
        title: title ?? DEFAULT_INTRO,
        questions,
        outro: outro ?? DEFAULT_OUTRO,
        countdownSeconds: countdownSeconds ?? DEFAULT_COUNTDOWN_SECONDS
      }
      const visuals: QuizVisuals = {
        _tag: "Quiz",
        quiz,
        theme,
        schedule: null,
        backdrop: yield* resolveBackdrop(background, "background"),
        captions
      }
      const script = [quiz.title, ...questions.flatMap((q) => [q.question, ...(q.explanation === undefined ? [] : [q.explanation])]), quiz.outro].join("\n")
      return yield* startGeneratedVideo({ ...request, script, voiceId }, { kind: "quiz", aspectRatio: aspectRatio ?? "9:16", visuals })
    })
})
