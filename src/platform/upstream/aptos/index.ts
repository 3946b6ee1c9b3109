export { Fullnode, type FullnodeOptions, isMoveAbort } from './fullnode.js';
export {
  type MoveNameArgs,
  moveNameArgs,
  moveOption,
  NameRouter,
  type NameRouterOptions,
  ROUTER_VIEW_FUNCTIONS,
  unwrapOption,
  type ViewFunctions,
} from './name-router.js';
