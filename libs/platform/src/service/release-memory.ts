import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Memory held in array buffers after a job above which the job's memory is collected at once. */
export const RELEASE_MEMORY_THRESHOLD_BYTES = 64 * 1024 * 1024;

type Collect = () => void;

/** V8's full collection (`gc`), made callable without `--expose-gc` on the command line. */
function garbageCollector(): Collect {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as Collect;
}

/**
 * Gives a large job's memory back after it ends. An idle worker allocates almost nothing, so V8 may not collect
 * for a long time and the buffers of the last job (a 2 GiB state vector) stay resident; when more than
 * `thresholdBytes` sit in array buffers (external memory), a full collection frees them (their pages go back to the system).
 * Returns whether it collected.
 */
export function releaseJobMemory(thresholdBytes = RELEASE_MEMORY_THRESHOLD_BYTES, collect?: Collect): boolean {
  // V8's external memory (array buffers and other off-heap allocations it knows of): about 1 µs, where
  // `process.memoryUsage().arrayBuffers` also reads /proc for the RSS (about 20 µs, 2 % of a small run's worker CPU).
  if (getHeapStatistics().external_memory < thresholdBytes) return false;
  (collect ?? garbageCollector())();
  return true;
}
