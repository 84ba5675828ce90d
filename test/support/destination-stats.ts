// What a destinationStats entry adds when the clicks sent there led to no goal or install
// (conversions by destination: test/destination-conversions.test.ts).
export const NO_CONVERSIONS = { conversions: 0, conversionRate: 0, installs: 0, goals: [], revenue: [] };
