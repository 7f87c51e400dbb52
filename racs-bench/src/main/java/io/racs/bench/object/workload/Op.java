package io.racs.bench.object.workload;

import java.util.Locale;

/** One object operation. */
public enum Op {
  /** Store an object (a new version of its key). */
  PUT,
  /** Read an object, whole or a range. */
  GET,
  /** Describe an object without reading it. */
  HEAD,
  /** List one page of keys under the key space's prefix. */
  LIST,
  /** Remove an object. */
  DELETE;

  /** The name as written on the command line and in reports: {@code get}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses {@code put}, {@code get}, {@code head}, {@code list} or {@code delete}.
   *
   * @throws IllegalArgumentException naming the accepted values
   */
  public static Op parse(String text) {
    try {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "operation: " + text + " (expected: put, get, head, list, delete or mixed)");
    }
  }
}
