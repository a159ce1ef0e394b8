/**
 * Each provider's HTTP 400 body around an error text, exactly as the provider returns it. The
 * sources are in the rule catalogue (docs/rules.md, "Envelopes").
 */

/** Anthropic: `{"type":"error","error":{"type":"invalid_request_error","message":…}}`. */
export function anthropicEnvelope(message: string): unknown {
  return { type: 'error', error: { type: 'invalid_request_error', message } };
}

/**
 * OpenAI (Chat Completions and Responses):
 * `{"error":{"message","type":"invalid_request_error","param","code"}}`.
 */
export function openaiEnvelope(
  message: string,
  param: string | null,
  code: string | null = null,
): unknown {
  return { error: { message, type: 'invalid_request_error', param, code } };
}

/** OpenAI Responses: the OpenAI body with `param` "input". */
export function responsesEnvelope(message: string): unknown {
  return openaiEnvelope(message, 'input');
}

/** Gemini (generativelanguage / Vertex REST): `{"error":{"code":400,"message","status"}}`. */
export function geminiEnvelope(message: string): unknown {
  return { error: { code: 400, message, status: 'INVALID_ARGUMENT' } };
}

/** Bedrock Converse: the ValidationException body `{"message":"…"}`. */
export function bedrockEnvelope(message: string): unknown {
  return { message };
}

/** DeepSeek: the OpenAI shape with `param` null and `code` "invalid_request_error". */
export function deepseekEnvelope(message: string): unknown {
  return {
    error: { message, type: 'invalid_request_error', param: null, code: 'invalid_request_error' },
  };
}

/** Qwen / DashScope: the OpenAI shape with `param` null and `code` "invalid_parameter_error". */
export function qwenEnvelope(message: string): unknown {
  return {
    error: { message, type: 'invalid_request_error', param: null, code: 'invalid_parameter_error' },
  };
}

/** Mistral: `{"object":"error","message","type":"invalid_request_message_order","code":"3230"}`. */
export function mistralEnvelope(
  message: string,
  type = 'invalid_request_message_order',
  code = '3230',
): unknown {
  return { object: 'error', message, type, param: null, code };
}
