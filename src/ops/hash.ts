import { sha256Hex } from "../core/canonical/jcs.js";
import { detectSyntax } from "../dialects/detect.js";
import { planHashOf } from "../engine.js";
import { defaultPolicy } from "../policy/defaults.js";
import { decodeText } from "../syntax/decode.js";
import { readSyntax } from "../syntax/index.js";

/**
 * The plan hash of a text: `sha256:` + hex SHA-256 of its RFC 8785 canonical JSON (Markdown: of the
 * text with \n line endings). Undefined when the text cannot be read.
 */
export async function planHash(input: string | Uint8Array, options: { file?: string } = {}): Promise<string | undefined> {
  let text: string;
  if (typeof input === "string") text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  else {
    const dec = decodeText(input);
    if (dec.issue) return undefined;
    text = dec.text;
  }
  const doc = await readSyntax(detectSyntax(options.file, text), text, defaultPolicy("/").limits);
  if (doc.issues.some((i) => i.rule === "parse-error" || i.rule === "limit-exceeded")) return undefined;
  return planHashOf(doc);
}

/** SHA-256 of raw bytes, as `--expected-hash` also accepts. */
export function fileSha256(bytes: Uint8Array): string {
  return sha256Hex(bytes);
}
