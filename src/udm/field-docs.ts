// What each UDM field and enum value means, in Google's words: the comments of googleapis'
// backstory/udm.proto, extracted by scripts/extract-udm-field-docs.mjs into schema/udm-field-docs.json
// (which names the commit it was read at). Hover and completion show them.
import FIELD_DOCS from './schema/udm-field-docs.json';

interface FieldDocs {
  source: string;
  /** message (`Noun`, `SecurityResult.Association`) → field → description */
  fields: Record<string, Record<string, string>>;
  /** enum (`Metadata.EventType`) → value → description */
  enumValues: Record<string, Record<string, string>>;
}

const DOCS = FIELD_DOCS as FieldDocs;

/** Where the descriptions come from: repository, file and commit. */
export const FIELD_DOCS_SOURCE = DOCS.source;

export function fieldDescription(message: string, field: string): string | undefined {
  return Object.hasOwn(DOCS.fields, message) && Object.hasOwn(DOCS.fields[message], field)
    ? DOCS.fields[message][field]
    : undefined;
}

export function enumValueDescription(enumName: string, value: string): string | undefined {
  return Object.hasOwn(DOCS.enumValues, enumName) && Object.hasOwn(DOCS.enumValues[enumName], value)
    ? DOCS.enumValues[enumName][value]
    : undefined;
}
