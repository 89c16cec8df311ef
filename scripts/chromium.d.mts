export declare const DEBIAN_LAUNCHER: string;
export declare const DEBIAN_BINARY: string;
export declare function chromiumExecutable(
  env?: Record<string, string | undefined>,
  exists?: (path: string) => boolean,
): string;
export declare const CHROMIUM_ARGS: readonly string[];
