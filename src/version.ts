/** The package version, reported in approval records and SARIF. */
export const VERSION = "0.2.0";
