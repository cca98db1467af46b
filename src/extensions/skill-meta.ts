/** The frontmatter of a SKILL.md or command file, normalised (spec skills-commands-agents.md A.2, B). */
import { FieldReader } from "./fields.ts";
import type { Effort, SkillMeta } from "./types.ts";

export const SKILL_FIELDS: ReadonlySet<string> = new Set([
  "name", "description", "when_to_use", "argument-hint", "arguments", "disable-model-invocation", "user-invocable",
  "allowed-tools", "disallowed-tools", "model", "effort", "context", "agent", "background", "hooks", "paths", "shell",
  "metadata", "license", "compatibility", "version", "author", "tags",
]);

export const EFFORTS: readonly Effort[] = ["low", "medium", "high", "xhigh", "max"];

/** Agent Skills' description limit; Claude Code itself only truncates the listing (1,536). */
const STANDARD_DESCRIPTION_LIMIT = 1024;

const MISSPELLINGS: Record<string, string> = {
  "user-invokable": "user-invocable",
  user_invocable: "user-invocable",
  userInvocable: "user-invocable",
  disable_model_invocation: "disable-model-invocation",
  disableModelInvocation: "disable-model-invocation",
  allowed_tools: "allowed-tools",
  allowedTools: "allowed-tools",
  disallowed_tools: "disallowed-tools",
  disallowedTools: "disallowed-tools",
  argument_hint: "argument-hint",
  argumentHint: "argument-hint",
  "when-to-use": "when_to_use",
  whenToUse: "when_to_use",
};

/** `argument-hint: [file]` parses as a YAML list; the author meant the text as typed. */
function argumentHint(reader: FieldReader): string | undefined {
  const raw = reader.raw("argument-hint");
  if (Array.isArray(raw) && raw.every((item) => typeof item === "string" || typeof item === "number")) {
    return `[${raw.join(", ")}]`;
  }
  return reader.string("argument-hint");
}

/**
 * `bodyParagraph` is the first paragraph of the body, the description when the frontmatter has
 * none. Command files ignore `name` and `paths` (spec B).
 */
export function skillMeta(reader: FieldReader, kind: "skill" | "command", bodyParagraph: string | undefined): SkillMeta {
  reader.misspellings(MISSPELLINGS);
  const declared = kind === "skill" ? reader.string("name")?.trim() : undefined;
  const written = reader.string("description")?.trim();
  const description = written || bodyParagraph || "";
  const descriptionFrom = written ? "frontmatter" : bodyParagraph ? "body" : "none";
  if (written && written.length > STANDARD_DESCRIPTION_LIMIT) {
    reader.report(
      "description",
      `description has ${written.length} characters; the Agent Skills standard allows ${STANDARD_DESCRIPTION_LIMIT} and the skill listing shows at most 1,536 (with when_to_use). Shorten it so the model sees all of it.`,
      "info",
      "description-long",
    );
  }
  const context = reader.oneOf("context", ["fork"] as const);
  const paths = kind === "skill" ? reader.list("paths") ?? [] : [];
  if (kind === "command" && reader.has("paths")) {
    reader.report("paths", `"paths" only works in SKILL.md files; in a command file it is ignored. Move the command to skills/<name>/SKILL.md to use it.`, "info", "ignored-field");
  }
  const model = reader.string("model")?.trim();
  const whenToUse = reader.string("when_to_use")?.trim();
  const hint = argumentHint(reader)?.trim();
  const agent = reader.string("agent")?.trim();
  const hooks = reader.map("hooks");
  const metadata = reader.map("metadata");
  const license = reader.string("license")?.trim();
  const compatibility = reader.string("compatibility")?.trim();
  const effort = reader.oneOf("effort", EFFORTS);
  return {
    ...(declared ? { declaredName: declared } : {}),
    description,
    descriptionFrom,
    ...(whenToUse ? { whenToUse } : {}),
    ...(hint ? { argumentHint: hint } : {}),
    argumentNames: reader.list("arguments") ?? [],
    modelInvocable: !reader.boolean("disable-model-invocation", false),
    userInvocable: reader.boolean("user-invocable", true),
    allowedTools: reader.tools("allowed-tools") ?? [],
    disallowedTools: reader.tools("disallowed-tools") ?? [],
    ...(model && model !== "inherit" ? { model } : {}),
    ...(effort ? { effort } : {}),
    ...(context ? { context } : {}),
    ...(agent ? { agent } : {}),
    background: reader.boolean("background", true),
    ...(hooks ? { hooks } : {}),
    paths,
    shell: reader.oneOf("shell", ["bash", "powershell"] as const) ?? "bash",
    ...(metadata ? { metadata } : {}),
    ...(license ? { license } : {}),
    ...(compatibility ? { compatibility } : {}),
  };
}
