import { analyze, type Analysis, type CompileOptions } from '../index';
import { RuleAnalysis } from '../rule/analyze';

/** Keeps one analysis per document version so every feature reuses the same parse. */
export class UdmDocument {
  private cached: Analysis | undefined;
  constructor(
    public text: string,
    public version: number,
    private options: CompileOptions = {},
    /** `yaral` for rule files: the analysis is then a RuleAnalysis */
    readonly languageId: string = 'udm',
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
    if (!this.cached)
      this.cached =
        this.languageId === 'yaral' ? new RuleAnalysis(this.text, this.options) : analyze(this.text, this.options);
    return this.cached;
  }
}
