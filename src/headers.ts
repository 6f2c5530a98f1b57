// Shared by the HTTP transport (which mirrors values into headers) and the generated checks (which keep to names a
// header can carry); neither layer imports the other for it.

/** Whether a header carries the text as is: visible ASCII, inner spaces allowed (RFC 9110 field values, no edge whitespace). */
export const isHeaderSafe = (text: string) => /^[\x21-\x7E](?:[\x20-\x7E]*[\x21-\x7E])?$/.test(text);
