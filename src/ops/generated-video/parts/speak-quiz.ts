// A quiz video's speaking step: the intro, each question and explanation, and the outro read aloud,
// then the cards timed from those speeches and mixed with the whooshes, ticks and reveal chimes.
import { Effect } from "effect"
import type { GeneratedProject, QuizVisuals } from "../../../../domain/generated-project.ts"
import { quizSchedule } from "../../../../domain/quiz.ts"
import { quizSoundCues } from "../../../../domain/sound-effects.ts"
import type { VideoRecord } from "../../../../domain/video.ts"
import { recordSpokenMix, speakParts } from "./spoken-mix.ts"

export const speakQuiz = (video: VideoRecord, project: GeneratedProject, visuals: QuizVisuals, dir: string) =>
  Effect.gen(function*() {
    const { quiz } = visuals
    const voiceId = project.voiceId
    const texts = [
      quiz.title,
      ...quiz.questions.flatMap((q) => [q.question, ...(q.explanation === undefined ? [] : [q.explanation])]),
      quiz.outro
    ]
    const spoken = yield* speakParts(video, texts.map((text) => ({ text, voiceId })), dir)
    // Walk the speeches back in the order they were listed.
    let next = 1
    const questions = quiz.questions.map((q) => {
      const question = spoken[next++]!
      const explanation = q.explanation === undefined ? null : spoken[next++]!
      return { question, explanation }
    })
    const intro = spoken[0]!
    const outro = spoken[next]!
    const schedule = quizSchedule(quiz, {
      intro: intro.durationSeconds,
      questions: questions.map((q) => ({ question: q.question.durationSeconds, explanation: q.explanation?.durationSeconds ?? null })),
      outro: outro.durationSeconds
    })
    return yield* recordSpokenMix(video, { ...project, visuals: { ...visuals, schedule } }, {
      speeches: [
        { part: intro, atSeconds: schedule.intro.speechAt },
        ...questions.flatMap((q, i) => {
          const timing = schedule.questions[i]!
          return [
            { part: q.question, atSeconds: timing.speechAt },
            ...(q.explanation === null || timing.explanation === null ? [] : [{ part: q.explanation, atSeconds: timing.explanation.speechAt }])
          ]
        }),
        { part: outro, atSeconds: schedule.outro.speechAt }
      ],
      cues: quizSoundCues(schedule),
      durationSeconds: schedule.durationSeconds
    }, dir)
  })
