// Strings of the results part of the app.
export const results = {};
