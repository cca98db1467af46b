/**
 * The only module that imports the SDK's runtime, and it is itself only ever loaded with
 * `await import()`. Importing the two classes clew uses statically here lets the bundler drop
 * the rest of the SDK (every other API resource, tool runners, webhooks): a dynamic import of the
 * SDK's own entry points keeps all of their exports, ~300 KB of code loaded for nothing.
 */
export { BaseAnthropic } from "@anthropic-ai/sdk/client";
export { Messages } from "@anthropic-ai/sdk/resources/messages/messages";
