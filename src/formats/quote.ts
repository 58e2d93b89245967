// How an error message shows a piece of its input: control bytes escaped and the length bounded, so a binary or a
// hostile file can neither flood the terminal nor write escape sequences to it.

// C0 and C1 controls, DEL, the bidirectional overrides and the replacement character left by undecodable bytes.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufffd]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `text` with its unprintable characters escaped (\n, \x1b, \u202e), cut to `max` characters with "…". */
export function printable(text: string, max = 300): string {
  const chars = Array.from(text);
  const cut = chars.length > max ? chars.slice(0, max).join('') + '…' : text;
  return cut.replace(UNPRINTABLE, (c) => NAMED[c] ?? (c.charCodeAt(0) < 0x100
    ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`
    : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/** A piece of input in double quotes for an error message: printable and at most `max` characters. */
export function quote(text: string, max = 40): string {
  return `"${printable(text, max)}"`;
}
