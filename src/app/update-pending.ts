/**
 * Whether a newly installed version is waiting for its first start to prove itself: one stat, so
 * the command line can skip loading the rollback check on almost every start.
 */
export { updatePending } from "../update/state.ts";
