export { PromptCache, canonicalJson, estimateInputTokens, tokensOfText, type CacheOptions, type CacheVerdict } from "./cache.ts";
export {
  dropConnection,
  errorBody,
  errorTypeForStatus,
  http,
  midStreamError,
  overloaded,
  rateLimited,
  serverError,
  stall,
  statusForErrorType,
  truncate,
  type ErrorType,
  type Fault,
  type HttpFault,
  type HttpFaultOptions,
  type StreamFault,
} from "./faults.ts";
export { checkRequest, type InvariantOptions } from "./invariants.ts";
export { Reply, fakeSignature, newMessageId, newServerToolUseId, newToolUseId, reply, type RenderContext, type SearchHit } from "./reply.ts";
export { deferredToolNames, lastUserReminders, lastUserText, messagesOf, textOf, toolNames, toolReferences, toolResults, type SentToolResult } from "./request.ts";
export { eventsBeforeFault } from "./respond.ts";
export {
  startFakeAnthropic,
  type FakeAnthropicOptions,
  type FakeServer,
  type ScriptStep,
  type Step,
  type StepFn,
} from "./server.ts";
export { encodeEvent, parseSse, splitBySizes, splitForWire, splitJson, splitText, toSseText, type SseRecord } from "./sse.ts";
export type * from "./types.ts";
