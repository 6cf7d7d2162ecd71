import { Injectable } from '@nestjs/common';
import { CalibrationAgentBody, RpcError, type AgentUsage } from '#qdc/contracts';
import {
  ImageDecodeError,
  approximateTokens,
  assessCalibration,
  compareWithVlm,
  decodeImage,
  readPlot,
  truncateToTokens,
  type CalibrationAssessment,
  type CalibrationContext,
  type CalibrationSeries,
} from '#qdc/calibration';
import { VlmClient } from './vlm.client.js';

/** Points (x values × y series) one request may ask the built-in fit to take; calibration sweeps have tens to hundreds. */
export const MAX_CALIBRATION_POINTS = 4096;

/** `model` of answers written by the built-in reader (no VLM configured). */
export const BUILT_IN_MODEL = 'qdc-calibration-reader-v1';
const DEFAULT_PROMPT = 'Describe this calibration plot: which experiment it is, whether the calibration worked, the fitted values, and the next step.';

export interface CalibrationAnswer {
  content: string;
  model: string;
  usage: AgentUsage;
  assessment: CalibrationAssessment;
  /** Where the built-in assessment and the VLM's text disagree (only with a VLM). */
  disagreements?: string[];
}

const invalid = (loc: (string | number)[], message: string, type = 'value_error'): RpcError =>
  new RpcError('invalid_input', message, { loc: ['body', ...loc], type });

/**
 * `ising-calibration-v1` (SPEC §6): arrays are fitted directly; an image is read by the built-in plot reader
 * (libs/calibration) and, when a VLM is configured, also described by it. The built-in assessment always fills
 * `assessment`; with a VLM, `content` is the VLM's text followed by the built-in summary and any disagreement.
 */
@Injectable()
export class CalibrationAgent {
  constructor(private readonly vlm: VlmClient) {}

  async run(rawBody: unknown): Promise<CalibrationAnswer> {
    const parsed = CalibrationAgentBody.safeParse(rawBody);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const got = issue.path.length ? '' : ` (got ${rawBody === null ? 'null' : Array.isArray(rawBody) ? 'an array' : typeof rawBody})`;
      throw invalid(
        issue.path as (string | number)[],
        `${issue.message}${got}; expected {image_base64?, prompt?, max_tokens?, data?: {experiment?, x, y, x_label?, y_label?, units?}} with at least one of image_base64 and data`,
        issue.code,
      );
    }
    const body = parsed.data;
    const prompt = body.prompt ?? '';
    const image = body.image_base64 === undefined ? undefined : this.imageOf(body.image_base64);

    let assessment: CalibrationAssessment;
    let summary: string;
    if (body.data) {
      const { series, context } = this.seriesOf(body.data, prompt);
      try {
        ({ assessment, content: summary } = assessCalibration(series, context));
      } catch (error) {
        if (error instanceof RangeError) throw invalid(['data'], error.message);
        throw error;
      }
    } else {
      ({ assessment, content: summary } = this.readImage(image!.bytes, prompt));
    }

    if (image && this.vlm.configured) {
      const answer = await this.vlm.describe(prompt || DEFAULT_PROMPT, { mime: image.mime, base64: image.base64 }, body.max_tokens);
      const disagreements = compareWithVlm(assessment, answer.text);
      const flagged = disagreements.length ? `\n\nDisagreements with the VLM: ${disagreements.join('; ')}.` : '';
      return {
        content: `${answer.text}\n\n[Built-in fit] ${summary}${flagged}`,
        model: answer.model,
        usage: answer.usage,
        assessment,
        disagreements,
      };
    }
    const content = body.max_tokens ? truncateToTokens(summary, body.max_tokens) : summary;
    const promptTokens = approximateTokens(prompt);
    const completionTokens = approximateTokens(content);
    return {
      content,
      model: BUILT_IN_MODEL,
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
      assessment,
    };
  }

  private imageOf(text: string): { bytes: Uint8Array; base64: string; mime: string } {
    const match = /^data:(image\/[\w.+-]+);base64,/i.exec(text);
    const base64 = (match ? text.slice(match[0].length) : text).replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(base64))
      throw invalid(['image_base64'], 'expected base64 (optionally a data: URL) of a PNG or JPEG image; got characters outside the base64 alphabet');
    const bytes = new Uint8Array(Buffer.from(base64, 'base64'));
    const mime =
      bytes[0] === 0x89 && bytes[1] === 0x50 ? 'image/png' : bytes[0] === 0xff && bytes[1] === 0xd8 ? 'image/jpeg' : (match?.[1] ?? 'application/octet-stream');
    if (mime !== 'image/png' && mime !== 'image/jpeg') {
      throw invalid(['image_base64'], `expected a PNG or JPEG image; got ${bytes.length} bytes starting ${Buffer.from(bytes.subarray(0, 8)).toString('hex')}`);
    }
    return { bytes, base64, mime };
  }

  private readImage(bytes: Uint8Array, prompt: string): { assessment: CalibrationAssessment; content: string } {
    let reading: ReturnType<typeof readPlot>;
    try {
      reading = readPlot(decodeImage(bytes));
    } catch (error) {
      if (error instanceof ImageDecodeError) throw invalid(['image_base64'], error.message);
      throw error;
    }
    if (reading.series.length === 0) {
      const assessment: CalibrationAssessment = {
        experiment: 'unknown',
        status: 'failed',
        fit: null,
        reliability: 0,
        next_step: `No data series could be read from the image (${reading.notes.join('; ') || 'no plot frame found'}); send the measured arrays as \`data\` instead.`,
        series: 0,
      };
      return { assessment, content: `Experiment: unknown. Status: failed.\nNext step: ${assessment.next_step}` };
    }
    const context: CalibrationContext = { prompt, title: reading.title, xLabel: reading.xLabel, yLabel: reading.yLabel };
    const result = assessCalibration(reading.series, context);
    const notes = reading.notes.length ? `\nReader notes: ${reading.notes.join('; ')}.` : '';
    return { assessment: result.assessment, content: `${result.content}${notes}` };
  }

  private seriesOf(data: NonNullable<CalibrationAgentBody['data']>, prompt: string): { series: CalibrationSeries[]; context: CalibrationContext } {
    const rows = Array.isArray(data.y[0]) ? (data.y as number[][]) : [data.y as number[]];
    // The fit runs on this process's event loop and its cost grows with the points (50 000 took minutes under load,
    // and every other assistant request waited): bounded before fitting.
    const points = data.x.length * rows.length;
    if (points > MAX_CALIBRATION_POINTS) {
      throw invalid(
        ['data'],
        `expected at most ${MAX_CALIBRATION_POINTS} points in all (x values × y series); got ${data.x.length} × ${rows.length} = ${points}: bin or decimate the sweep`,
      );
    }
    rows.forEach((row, i) => {
      if (row.length !== data.x.length) {
        throw invalid(['data', 'y', ...(rows.length > 1 ? [i] : [])], `expected ${data.x.length} values (the length of x); got ${row.length}`);
      }
    });
    const units = typeof data.units === 'string' ? { x: data.units } : (data.units ?? {});
    return {
      series: rows.map((y, i) => ({ x: data.x, y, label: `series ${i}` })),
      context: {
        experiment: data.experiment,
        prompt,
        title: data.title,
        xLabel: data.x_label,
        yLabel: data.y_label,
        xUnit: units.x ?? unitFromLabel(data.x_label),
        yUnit: units.y ?? unitFromLabel(data.y_label),
      },
    };
  }
}

/** "Delay (µs)" → "µs"; "Frequency [GHz]" → "GHz". */
function unitFromLabel(label: string | undefined): string | undefined {
  const match = label ? /[([]\s*([^()[\]]{1,12})\s*[)\]]\s*$/.exec(label) : null;
  return match?.[1];
}
