// The types of reference-table.mjs, for the test that checks the committed table is its output.
export declare const TABLE_PATH: string;
export declare function fixtureRecords(): string[];
export declare function referenceTableText(paths: readonly string[]): string;
