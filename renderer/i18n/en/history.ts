// Strings of the history part of the app.
export const history = {};
