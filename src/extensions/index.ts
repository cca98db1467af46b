/** The extension layer's public surface: what app/, cli/ and ui/ import. */
export { agentsFromJson } from "./agents-json.ts";
export { DEFAULT_LISTING_BUDGET, listingDescription, MAX_LISTING_DESCRIPTION, skillCatalogue, type CatalogueOptions } from "./catalogue.ts";
export { loadExtensions, loadNested, loadSource, type LoadOptions } from "./load.ts";
export { formatExtensionProblem } from "./problems.ts";
export { ExtensionRegistry, type BodyResult, type Invocation, type LoadedSource } from "./registry.ts";
export {
  completeInvocation, grantedRules, prepareInvocation, renderInvocation, SHELL_DISABLED_NOTICE, skillMessage,
  type Attachment, type FileAction, type FileOutcome, type PreparedInvocation, type RenderAction, type RenderInput,
  type RenderPort, type RenderResult, type ShellAction, type ShellOutcome,
} from "./render.ts";
export { MAX_STACKED_SKILLS, parseSlashInvocation, type SlashInvocation } from "./slash.ts";
export { discoverSources, nestedSources, pluginSource, type DiscoveryInput, type PluginSourceInput } from "./sources.ts";
export { splitArguments, substituteVariables, type RenderVariables } from "./substitute.ts";
export type * from "./types.ts";
