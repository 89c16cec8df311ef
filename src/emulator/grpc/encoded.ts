// Answers the sandbox's gRPC half sends as bytes it already holds. A page of 1,000 models built as
// objects and encoded again for every ListModels call cost the sandbox about as much CPU as the
// client spends decoding it; a real service serves such pages far faster than it. So the store keeps
// each model's encoding until something changes (ModelStore.encodedModel) and a page is those
// encodings put together, with the field numbers of the descriptor.
import * as protobuf from 'protobufjs/light';
import { messageType } from '../../core/proto';

/** A response already encoded as its method's response type; the server sends the bytes as they are. */
export class EncodedMessage {
  constructor(
    readonly typeName: string,
    readonly bytes: Uint8Array,
  ) {}
}

interface ListLayout {
  itemsTag: number;
  tokenTag: number;
  itemsFirst: boolean;
}

const layouts = new Map<string, ListLayout>();

function listLayout(typeName: string, itemsField: string): ListLayout {
  const key = `${typeName}.${itemsField}`;
  let layout = layouts.get(key);
  if (!layout) {
    const type = messageType(typeName);
    const items = type.fields[itemsField]?.resolve();
    const token = type.fields['nextPageToken'];
    if (!items?.repeated || !(items.resolvedType instanceof protobuf.Type))
      throw new Error(`${typeName} has no repeated message field ${itemsField}`);
    if (!token || token.type !== 'string') throw new Error(`${typeName} has no next_page_token`);
    // Both are length-delimited (wire type 2).
    layout = {
      itemsTag: ((items.id << 3) | 2) >>> 0,
      tokenTag: ((token.id << 3) | 2) >>> 0,
      itemsFirst: items.id < token.id,
    };
    layouts.set(key, layout);
  }
  return layout;
}

/**
 * A list response (`typeName`, e.g. ListModelsResponse) from the encodings of its items and its page
 * token. Fields are written in field-number order, as protobufjs writes a message, and an empty token
 * is left out, as proto3 leaves out every default; so the bytes are those `encodeMessage` gives for
 * the same items without an empty token.
 */
export function encodeListResponse(
  typeName: string,
  itemsField: string,
  items: readonly Uint8Array[],
  nextPageToken: string,
): EncodedMessage {
  const { itemsTag, tokenTag, itemsFirst } = listLayout(typeName, itemsField);
  const writer = protobuf.Writer.create();
  const writeToken = (): void => {
    if (nextPageToken !== '') writer.uint32(tokenTag).string(nextPageToken);
  };
  if (!itemsFirst) writeToken();
  for (const item of items) writer.uint32(itemsTag).bytes(item);
  if (itemsFirst) writeToken();
  return new EncodedMessage(typeName, writer.finish());
}
