// The pricing feature's public entry: other features import only what is listed here (biome.json).
export { PricingPlans } from './pricing-plans.tsx';
