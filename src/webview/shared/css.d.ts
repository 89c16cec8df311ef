// A stylesheet imported by a page is bundled into the page's CSS; the notebook renderer, which has no
// stylesheet of its own, gets the text (scripts/build.mjs loads .css as text for it).
declare module '*.css' {
  const text: string;
  export default text;
}
