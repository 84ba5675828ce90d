// How the Service API's routes are documented: the X-API-KEY header as their security (the
// console, which serves some of the same routes, documents its own instead).
export const security = [{ apiKey: [] }];
