// Every operation the service offers. HTTP routes, MCP tools and CLI verbs are derived from this list.
import type { CurrentWorkspace } from "./kernel/current-workspace.ts"
import type { Effect } from "effect"
import type { AnyOperation } from "./kernel/operation.ts"
import { createCaptionTemplate } from "./ops/caption-templates/create-caption-template.ts"
import { deleteCaptionTemplate } from "./ops/caption-templates/delete-caption-template.ts"
import { listCaptionTemplates } from "./ops/caption-templates/list-caption-templates.ts"
import { updateCaptionTemplate } from "./ops/caption-templates/update-caption-template.ts"
import { createAiVideo, createAiVideoV3 } from "./ops/ai-video/create-ai-video.ts"
import { listArtStyles } from "./ops/art-styles/list-art-styles.ts"
import { createCaptionVideo } from "./ops/caption-video/create-caption-video.ts"
import { createCaptionRemoval } from "./ops/caption-removal/create-caption-removal.ts"
import { getCaptionRemoval } from "./ops/caption-removal/get-caption-removal.ts"
import { createClips } from "./ops/clips/create-clips.ts"
import { getClips } from "./ops/clips/get-clips.ts"
import { createFakeTextScreenshot } from "./ops/fake-text/create-fake-text-screenshot.ts"
import { createFakeTextVideo } from "./ops/fake-text/create-fake-text-video.ts"
import { createQuizVideo } from "./ops/quiz-video/create-quiz-video.ts"
import { listFiles } from "./ops/files/list-files.ts"
import { setPlan } from "./ops/plans/set-plan.ts"
import { getPricing } from "./ops/pricing/get-pricing.ts"
import { deleteProviderKey } from "./ops/provider-keys/delete-provider-key.ts"
import { listProviderKeys } from "./ops/provider-keys/list-provider-keys.ts"
import { putProviderKey } from "./ops/provider-keys/put-provider-key.ts"
import { getQueueStatus } from "./ops/queue/get-queue-status.ts"
import { retryJob } from "./ops/queue/retry-job.ts"
import { createGameplayVideo } from "./ops/gameplay-video/create-gameplay-video.ts"
import { uploadFile } from "./ops/files/upload-file.ts"
import { renderVideoOperation } from "./ops/render/render-video.ts"
import { listVoices } from "./ops/speech/list-voices.ts"
import { textToSpeech } from "./ops/speech/text-to-speech.ts"
import { addMember } from "./ops/users/add-member.ts"
import { createUser } from "./ops/users/create-user.ts"
import { editVideoCaptions } from "./ops/videos/edit-video-captions.ts"
import { getVideoCaptions } from "./ops/videos/get-video-captions.ts"
import { getVideo } from "./ops/videos/get-video.ts"
import { listVideos } from "./ops/videos/list-videos.ts"
import { cancelVideo } from "./ops/videos/cancel-video.ts"
import { deleteVideoMedia } from "./ops/videos/delete-video-media.ts"
import { listVideoDeliveries } from "./ops/webhooks/list-video-deliveries.ts"
import { redeliverWebhookEvent } from "./ops/webhooks/redeliver-webhook-event.ts"
import { createWebhookSecret } from "./ops/webhook-secrets/create-webhook-secret.ts"
import { deleteWebhookSecret } from "./ops/webhook-secrets/delete-webhook-secret.ts"
import { listWebhookSecrets } from "./ops/webhook-secrets/list-webhook-secrets.ts"
import { updateWebhookSecret } from "./ops/webhook-secrets/update-webhook-secret.ts"
import { createWorkspace } from "./ops/workspaces/create-workspace.ts"
import { issueToken } from "./ops/workspaces/issue-token.ts"
import { revokeToken } from "./ops/workspaces/revoke-token.ts"
import { setByok } from "./ops/workspaces/set-byok.ts"
import { setWebhookSecret } from "./ops/workspaces/set-webhook-secret.ts"
import { getWorkspace } from "./ops/workspace-account/get-workspace.ts"
import { grantCredits } from "./ops/workspace-account/grant-credits.ts"
import { listBalanceLogs } from "./ops/workspace-account/list-balance-logs.ts"
import { listCreditLogs } from "./ops/workspace-account/list-credit-logs.ts"
import { topUpCash } from "./ops/workspace-account/top-up-cash.ts"
import { getWorkspaceVocabulary } from "./ops/workspace-vocabulary/get-workspace-vocabulary.ts"
import { setWorkspaceVocabulary } from "./ops/workspace-vocabulary/set-workspace-vocabulary.ts"

/** What the operations need from the adapters (the workspace itself comes from authentication). */
export type CatalogueServices = Exclude<ServicesOf<(typeof workspaceOperations | typeof adminOperations)[number]>, CurrentWorkspace>

type ServicesOf<Op> = Op extends { readonly handle: (input: never) => Effect.Effect<unknown, unknown, infer R> } ? R : never

/** What a workspace token may call: the `v1` routes, the MCP tools and most CLI verbs. */
export const workspaceOperations = [
  createCaptionVideo,
  createAiVideo,
  createAiVideoV3,
  createGameplayVideo,
  createFakeTextVideo,
  createQuizVideo,
  getVideo,
  listVideos,
  getVideoCaptions,
  editVideoCaptions,
  renderVideoOperation,
  cancelVideo,
  deleteVideoMedia,
  listVideoDeliveries,
  redeliverWebhookEvent,
  listWebhookSecrets,
  createWebhookSecret,
  updateWebhookSecret,
  deleteWebhookSecret,
  listVoices,
  listArtStyles,
  uploadFile,
  listFiles,
  textToSpeech,
  createFakeTextScreenshot,
  createCaptionRemoval,
  getCaptionRemoval,
  createClips,
  getClips,
  listCaptionTemplates,
  createCaptionTemplate,
  updateCaptionTemplate,
  deleteCaptionTemplate,
  getWorkspace,
  getWorkspaceVocabulary,
  setWorkspaceVocabulary,
  listCreditLogs,
  listBalanceLogs,
  listProviderKeys,
  putProviderKey,
  deleteProviderKey,
  getPricing
] as const satisfies ReadonlyArray<AnyOperation>

/** What only the operator's admin token may call (never MCP tools). */
export const adminOperations = [
  createWorkspace,
  issueToken,
  revokeToken,
  setWebhookSecret,
  topUpCash,
  grantCredits,
  setPlan,
  setByok,
  createUser,
  addMember,
  getQueueStatus,
  retryJob
] as const satisfies ReadonlyArray<AnyOperation>

export type CatalogueOperation = (typeof workspaceOperations | typeof adminOperations)[number]

export const catalogue: ReadonlyArray<AnyOperation<CatalogueServices | CurrentWorkspace>> = [...workspaceOperations, ...adminOperations]
