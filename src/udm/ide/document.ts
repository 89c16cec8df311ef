import { analyze, type Analysis, type CompileOptions } from '../index';

/** Keeps one analysis per document version so every feature reuses the same parse. */
export class UdmDocument {
  private cached: Analysis | undefined;
  constructor(
    public text: string,
    public version: number,
    private options: CompileOptions = {},
  ) {}

  update(text: string, version: number): void {
    this.text = text;
    this.version = version;
    this.cached = undefined;
  }

  setOptions(options: CompileOptions): void {
    this.options = options;
    this.cached = undefined;
  }

  get analysis(): Analysis {
    if (!this.cached) this.cached = analyze(this.text, this.options);
    return this.cached;
  }
}
