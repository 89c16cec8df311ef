// The query bar bundles the UDM language service, and with it the library's query evaluation
// (src/udm/functions), which decodes base64 and hex with Node's Buffer. The bar only analyses and
// completes, which never reach that code (test/unit/querybar/service.test.ts runs them with no
// Buffer at all); these declarations exist for the page's type check only, and say no more about
// Buffer than the library uses.
declare global {
  interface Buffer extends Uint8Array {
    toString(encoding?: 'base64' | 'base64url' | 'hex' | 'utf8'): string;
  }
  var Buffer: {
    from(data: string, encoding: 'base64' | 'base64url' | 'hex' | 'utf8'): Buffer;
    from(data: ArrayBufferLike, byteOffset?: number, length?: number): Buffer;
  };
}

export {};
