/** The sandbox demo merchant `npm start` creates on a fresh database. */
export const DEMO_MERCHANT_NAME = "Demo Shop";
