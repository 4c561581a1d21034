/** How many instances there are; how many one account may hold, and how many stay for first renders, while others wait. */
export interface PoolConfig {
  instances: number;
  accountCap: number;
  /** Default 0. */
  reserve?: number;
}
/**
 * Instances kept, while renders of several accounts wait, for accounts with nothing running: one in fifty
 * (none below 50 instances, where one would be more than 2 % of the capacity).
 */
export const FIRST_RENDER_RESERVE = 1 / 50;

/** The cap is ceil(instances × accountShare), at least 1. */
export function poolConfig(instances: number, accountShare: number): Required<PoolConfig> {
  return {
    instances,
    accountCap: Math.max(1, Math.ceil(instances * accountShare)),
    reserve: Math.floor(instances * FIRST_RENDER_RESERVE),
  };
}
