// Strings of the labs part of the app.
export const labs = {};
