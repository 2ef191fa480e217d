/** Calibration: threshold profiles as data, levels under a profile, k-sensitivity, fitting. Pure. */
export * from "./profile";
export * from "./level";
export * from "./signals";
export * from "./metrics";
export * from "./fit";
