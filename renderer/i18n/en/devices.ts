// Strings of the devices part of the app.
export const devices = {};
