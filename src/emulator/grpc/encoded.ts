// Answers the sandbox's gRPC half sends as bytes it already holds. A page of 1,000 models built as
// objects and encoded again for every ListModels call cost the sandbox about as much CPU as the
// client spends decoding it; a real service serves such pages far faster than it. So the store keeps
// each model's encoding until something changes (ModelStore.encodedModel) and a page is those
// encodings put together, with the field numbers of the descriptor.
import * as protobuf from 'protobufjs/light';
import { listFields } from '../../core/proto';

/** A response already encoded as its method's response type; the server sends the bytes as they are. */
export class EncodedMessage {
  constructor(
    readonly typeName: string,
    readonly bytes: Uint8Array,
  ) {}
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
  const { itemsId, tokenId } = listFields(typeName, itemsField);
  // Both are length-delimited (wire type 2).
  const itemsTag = ((itemsId << 3) | 2) >>> 0;
  const tokenTag = ((tokenId << 3) | 2) >>> 0;
  const itemsFirst = itemsId < tokenId;
  const writer = protobuf.Writer.create();
  const writeToken = (): void => {
    if (nextPageToken !== '') writer.uint32(tokenTag).string(nextPageToken);
  };
  if (!itemsFirst) writeToken();
  for (const item of items) writer.uint32(itemsTag).bytes(item);
  if (itemsFirst) writeToken();
  return new EncodedMessage(typeName, writer.finish());
}
