// A generated video's project as a timeline the renderer can encode: its stored narration and
// pictures copied to the scratch folder, one image scene each (fading into the next), captions laid
// out from the spoken words in the template's style.
import { Effect } from "effect"
import type { CaptionPage, CaptionStyle, TimedWord } from "../../../domain/captions.ts"
import type { GeneratedProject } from "../../../domain/generated-project.ts"
import type { RenderOptions } from "../../../domain/rules.ts"
import type { Timeline } from "../../../domain/timeline.ts"
import { localFile } from "../media/scratch.ts"

export const generatedTimeline = (input: {
  readonly project: GeneratedProject
  readonly words: ReadonlyArray<TimedWord>
  readonly captions: { readonly pages: ReadonlyArray<CaptionPage>; readonly style: CaptionStyle }
  readonly options: RenderOptions
  readonly width: number
  readonly height: number
  readonly dir: string
}) =>
  Effect.gen(function*() {
    const { dir, project } = input
    if (project.narrationFileId === null || project.scenes.some((s) => s.imageFileId === null)) {
      return yield* Effect.dieMessage("the project was rendered before it was generated")
    }
    const narration = yield* localFile(project.narrationFileId, `${dir}/narration.mp3`)
    const scenes = yield* Effect.forEach(project.scenes, (scene, i) =>
      Effect.map(localFile(scene.imageFileId!, `${dir}/scene-${i}.png`), (path) => ({
        durationSeconds: scene.durationSeconds,
        visual: { _tag: "Image" as const, path, motion: scene.motion },
        overlays: [],
        transition: i === 0 ? ("cut" as const) : ("fade" as const)
      })))
    const timeline: Timeline = {
      width: input.width,
      height: input.height,
      frameRate: input.options.frameRate,
      format: input.options.format,
      background: "#000000",
      scenes,
      narration: { path: narration, words: input.words },
      captions: input.captions,
      music: null
    }
    return timeline
  })
