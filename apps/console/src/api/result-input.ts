import { decodeArray, type NdArray } from '#qdc/arrays';
import { unzipSync } from 'fflate';
import type { ConsoleApi } from './console-api.js';

/**
 * The input array of a stored result, read from its download (the zip of result.json and the input file): how
 * the console plots a lab stream's frames, which the stream's events name only by result id.
 */
export async function fetchResultInput(api: ConsoleApi, resultId: string, signal?: AbortSignal): Promise<NdArray> {
  const zip = await api.client.results.download(resultId, { signal });
  return inputOfDownload(zip);
}

/** A lab stream frame's input for an admin key, whose owner need not be the lab's (the admin route reads as the lab's owner). */
export async function fetchStreamResultInput(api: ConsoleApi, lab: string, name: string, resultId: string, signal?: AbortSignal): Promise<NdArray> {
  const zip = await api.client.admin.labStreams.downloadResult(lab, name, resultId, { signal });
  return inputOfDownload(zip);
}

/** The array in a result's download zip (the one entry that is not result.json). */
export function inputOfDownload(zip: Uint8Array): NdArray {
  const entries = unzipSync(zip, { filter: (file) => file.name !== 'result.json' });
  const input = Object.values(entries)[0];
  if (!input) throw new Error('the download holds no input file');
  return decodeArray(input);
}
