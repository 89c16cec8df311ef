// What a results page takes of the messages posted to it: the extension numbers those it posts while
// the page loads and sends them again once the page says it is ready; the page takes each number once.
export function pageTakes(): (message: unknown) => boolean {
  let last = 0;
  return (message) => {
    const seq = (message as { seq?: unknown } | null)?.seq;
    if (typeof seq !== 'number') return true;
    if (seq <= last) return false;
    last = seq;
    return true;
  };
}
