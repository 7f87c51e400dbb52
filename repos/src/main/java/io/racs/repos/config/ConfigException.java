package io.racs.repos.config;

/**
 * A configuration file that cannot be used. The message is one line naming the file, the repository
 * and the field, e.g. {@code racs.yaml: repository 'a': field 'durable': expected true or false,
 * got 'maybe'}, so it can be printed as is.
 */
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** A problem described by {@code message} (one line). */
  public ConfigException(String message) {
    super(message.replace('\n', ' '));
  }

  /** A problem described by {@code message} (one line), caused by {@code cause}. */
  public ConfigException(String message, Throwable cause) {
    super(message.replace('\n', ' '), cause);
  }
}
