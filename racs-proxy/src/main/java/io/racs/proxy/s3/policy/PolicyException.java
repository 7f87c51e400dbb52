package io.racs.proxy.s3.policy;

/**
 * A policy document that cannot be accepted: not JSON, too large, or naming something RACS does not
 * judge. The message says what and where, in one line; the S3 API answers it as {@code
 * MalformedPolicy}, the CLI prints it. The policy's own text in it (a field name, a value) has its
 * control characters escaped here, once for every message, so that no document can break the line.
 */
public final class PolicyException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** A refusal with its reason, made one line (control characters escaped as {@code \\uXXXX}). */
  public PolicyException(String message) {
    super(oneLine(message));
  }

  static String oneLine(String message) {
    StringBuilder out = null;
    for (int i = 0; i < message.length(); i++) {
      char c = message.charAt(i);
      if (Character.isISOControl(c)) {
        if (out == null) {
          out = new StringBuilder(message.length() + 8).append(message, 0, i);
        }
        out.append(String.format("\\u%04x", (int) c));
      } else if (out != null) {
        out.append(c);
      }
    }
    return out == null ? message : out.toString();
  }
}
