// The language ids of package.json's languages that the one language server serves.
export const UDM_LANGUAGE_ID = 'udm';
export const YARAL_LANGUAGE_ID = 'yaral';
/** The languages the one server serves: UDM search and whole YARA-L rules. */
export const SERVED_LANGUAGES: ReadonlySet<string> = new Set([UDM_LANGUAGE_ID, YARAL_LANGUAGE_ID]);
