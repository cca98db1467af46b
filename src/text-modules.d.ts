// Prompt text and tool descriptions are imported `with { type: "text" }` so that
// `bun build --compile` embeds them in the binary.
declare module "*.md" {
  const text: string;
  export default text;
}
