// The image checks live in util/ so the prompt's pasted and @-attached images (cli/) are held to
// the same limits as Read's; tools import them from here as before.
export { byteSizeProblem, formatBytes, imageLimitProblem, imageSize, MAX_IMAGE_BASE64_CHARS, MAX_IMAGE_BYTES, MAX_IMAGE_EDGE_PX, type ImageSize } from "../../util/image-limits.ts";
