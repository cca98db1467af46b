/**
 * What the Messages API accepts for PDFs, and whether the session's model takes them as
 * `document` blocks. Limits as the PDF-support documentation states them: a request of at most
 * 32 MB and at most 100 pages in all (600 on models with a 1M-token window; clew keeps to the lower
 * figure, which holds on every model), both counted over the whole request. "All active models
 * support PDF processing": every Claude model from 3.5 on; a model reached through a gateway or
 * run locally under another name is sent text instead, which any model can read.
 */
import type { ToolSession } from "../types.ts";

/** Without `pages`, Read sends a PDF of at most this many pages (Claude Code's rule: "required for PDFs over 10 pages"). */
export const PDF_MAX_PAGES_WITHOUT_RANGE = 10;
/** One Read sends at most this many pages (Claude Code's "max 20 pages/request"). */
export const PDF_MAX_PAGES_PER_READ = 20;
/**
 * The most raw bytes one document block may carry: 20 MB is 26.7 MB once base64-encoded, which
 * leaves room in the 32 MB request for the rest of the conversation.
 */
export const PDF_MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;
/** PDF pages one request may carry in all. */
export const PDF_MAX_PAGES_PER_REQUEST = 100;
/** Past this size a PDF is not loaded at all: splitting it is a job for qpdf or pdftotext. */
export const PDF_MAX_FILE_BYTES = 100 * 1024 * 1024;

/** Families from before PDF support (Claude 2, Claude 3 Opus/Sonnet/Haiku): text only. */
const BEFORE_PDF_SUPPORT = /claude-(?:instant|2|3-(?:opus|sonnet|haiku))\b/i;

/** True when the model reads `document` blocks; an unknown (undefined) model is taken to be Claude's default. */
export function modelAcceptsPdfDocuments(modelId: string | undefined): boolean {
  if (modelId === undefined) return true;
  if (!/claude/i.test(modelId)) return false;
  return !BEFORE_PDF_SUPPORT.test(modelId);
}

/**
 * The session's current model, when the session says (`currentModel`, set where sessions are built).
 */
export function sessionModel(session: ToolSession): string | undefined {
  return session.currentModel?.();
}

/**
 * What this session has sent as PDF documents. Every document stays in the history and counts
 * against the request's 100 pages and 32 MB on every later request, so past either budget Read
 * sends text instead.
 */
export interface DocumentsSent {
  pages: number;
  bytes: number;
}

/** Raw PDF bytes a conversation carries in all: 26.7 MB once base64-encoded, leaving room in 32 MB. */
export const PDF_MAX_CONVERSATION_BYTES = PDF_MAX_DOCUMENT_BYTES;

const sentBySession = new WeakMap<ToolSession, DocumentsSent>();

export function documentsSent(session: ToolSession): DocumentsSent {
  return sentBySession.get(session) ?? { pages: 0, bytes: 0 };
}

export function recordDocument(session: ToolSession, pages: number, bytes: number): void {
  const sent = documentsSent(session);
  sentBySession.set(session, { pages: sent.pages + pages, bytes: sent.bytes + bytes });
}
