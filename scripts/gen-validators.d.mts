/** The formats whose validators are generated. */
export const VALIDATED: string[];
/** The generated module's file name for a format. */
export function moduleName(name: string): string;
/** The generated module's text for one published schema. */
export function generate(name: string): string;
