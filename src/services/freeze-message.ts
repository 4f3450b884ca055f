import type { Message } from "@bufbuild/protobuf";

/**
 * Freezes a message and every message, list and map in it, so that one answer can be handed to
 * many calls and nobody can change it for the others; the REST layer then renders its JSON once
 * (transcode/render.ts). Bytes fields stay writable (a typed array cannot be frozen): freeze only
 * messages without them.
 */
export function freezeMessage<T extends Message>(message: T): T {
  deepFreeze(message);
  return message;
}

function deepFreeze(value: unknown): void {
  if (typeof value !== "object" || value === null || ArrayBuffer.isView(value) || Object.isFrozen(value)) return;
  for (const item of Object.values(value)) deepFreeze(item);
  Object.freeze(value);
}
