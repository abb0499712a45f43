/** The Flags tree as plain data (no 'vscode'): src/views/flagsTree.ts shows it, tests walk it. */
export { childrenOf, errorNode, findFlagNode } from './children';
export {
  MAX_CHILDREN,
  MAX_TOOLTIP,
  projectOf,
  type ChildLoader,
  type Collapsible,
  type FlagRef,
  type NodeIcon,
  type NodeKind,
  type TreeNode,
  type TreeOptions,
} from './node';
export { flagTypeIcon, rootNodes } from './root';
export { OFFLINE_SEGMENT_NOTE } from './strategy';
export {
  flagPickItems,
  flagRefOf,
  isTreeNode,
  viewDescription,
  viewMessage,
  type FlagPickItem,
} from './commandData';
