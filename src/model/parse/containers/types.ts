/** Shapes shared by the container readers (curl, SSE, HAR, LiteLLM, batch files). */
import type { FormatId, ParseError, ProviderId, Result } from '../../types.ts';

/** The containers we unwrap before the format detectors run. */
export type ContainerKind = 'curl' | 'sse' | 'har' | 'litellm' | 'batch' | 'otel';

/** Where an inner document came from, shown as a note on the transcript. */
export interface ContainerNote {
  kind: ContainerKind;
  /** For people: "body of the curl command, line 3", "HAR entry 4 of 12: POST https://…". */
  where: string;
  /** The format the container's URL implies (curl URL, HAR request URL, batch `url`). */
  formatHint?: FormatId;
  /**
   * The endpoint the container names (the URL's host and path, an OTel span's
   * `server.address`): the verdict's default (`Transcript.endpoint`).
   */
  endpoint?: ProviderId;
  /** The model the URL names (Gemini, Bedrock, Vertex put it in the path), for a body without one. */
  model?: string;
  /** The body was rebuilt from a record that keeps no tool definitions (`Transcript.toolsUnrecorded`). */
  toolsUnrecorded?: boolean;
  /** Further notes for the transcript's warnings (a provider error the HAR recorded, …). */
  notes?: string[];
  /**
   * The error the provider answered this request with, as the container recorded it (a HAR
   * entry's 4xx/5xx response): `HTTP 400: <the error's message>`. A request listing's
   * `RequestInfo.apiError`.
   */
  apiError?: string;
}

/** One inner document: a request body or a response object, ready for the format parsers. */
export interface ContainerEntry {
  /** Shown in the request picker when a container holds several. */
  label: string;
  value: unknown;
  note: ContainerNote;
  /**
   * Opened when the user has not chosen (the first such entry; `RequestEntry.preferred`). Without
   * it, the last entry opens. A HAR marks its latest entry by `startedDateTime`.
   */
  preferred?: boolean;
  /**
   * Set when the entry's request cannot be read whole (an OTel attribute cut by a length limit):
   * what and where, for people. Opening it is refused with this (no provider verdict).
   */
  unreadable?: string;
}

/** What a container reader returns: null when the input is not this container. */
export type ContainerRead = Result<ContainerEntry[], ParseError> | null;
