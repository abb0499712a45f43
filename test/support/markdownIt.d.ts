// The part of markdown-it the tests use to render hovers and tooltips as VS Code would (the package has no types).
declare module 'markdown-it' {
  class MarkdownIt {
    constructor(options?: { html?: boolean; linkify?: boolean });
    render(source: string): string;
    /** Whether a link's address is kept; the tests replace it to see every link the markdown makes. */
    validateLink(url: string): boolean;
  }
  export = MarkdownIt;
}
