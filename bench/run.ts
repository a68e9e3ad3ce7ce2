// `npm run bench`: every benchmark in sequence, then one table of all their figures.
import { captionRender } from "./caption-render.ts"
import { report } from "./figures.ts"
import { uploadMemory } from "./upload-memory.ts"

const figures = [...(await captionRender()), ...(await uploadMemory())]
await report(figures)
