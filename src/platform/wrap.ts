// Long explanations shown as tree rows: a row shows one line and cuts the rest, so the full text is
// split into lines short enough to be read whole in a narrow side bar.

/** Splits `text` at spaces into lines of at most `width` characters (a longer word gets a line of its own). */
export function wrapText(text: string, width = 60): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else {
        line = line ? `${line} ${word}` : word;
      }
    }
    if (line) lines.push(line);
  }
  return lines;
}
