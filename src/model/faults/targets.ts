/** The zod shapes of a fault's target, as a link carries it (`FaultDef.schema`). */
import { z } from 'zod';

/** A pair key from `pairToolCalls` (`p3`). */
export const PairKeySchema = z.string().regex(/^p\d{1,8}$/);

/** A message position. */
export const MessageIndexSchema = z.number().int().min(0).max(10_000_000);

/** A count of trailing messages. */
export const CountSchema = z.number().int().min(1).max(10_000_000);

/** A lone UTF-16 surrogate: text a link carries must be well-formed. */
export const LONE_SURROGATE =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
