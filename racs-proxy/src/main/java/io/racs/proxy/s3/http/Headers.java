package io.racs.proxy.s3.http;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Immutable, case-insensitive HTTP headers: names are kept lower-cased (as SigV4 canonicalises
 * them), values in arrival order. Build with {@link #builder()} or {@link #of(String...)}.
 */
public final class Headers {
  private static final Headers EMPTY = new Headers(new TreeMap<>());

  private final Map<String, List<String>> byName;

  private Headers(TreeMap<String, List<String>> byName) {
    this.byName = Collections.unmodifiableMap(byName);
  }

  /** No headers. */
  public static Headers empty() {
    return EMPTY;
  }

  /** Headers from alternating names and values: {@code of("host", "h", "x-amz-date", "d")}. */
  public static Headers of(String... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException(
          "namesAndValues.length: " + namesAndValues.length + " (expected: even)");
    }
    Builder b = builder();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      b.add(namesAndValues[i], namesAndValues[i + 1]);
    }
    return b.build();
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** The first value of {@code name}, if present. */
  public Optional<String> first(String name) {
    List<String> values = byName.get(name.toLowerCase(Locale.ROOT));
    return values == null ? Optional.empty() : Optional.of(values.get(0));
  }

  /** The first value of {@code name}, or {@code null}. */
  public String get(String name) {
    List<String> values = byName.get(name.toLowerCase(Locale.ROOT));
    return values == null ? null : values.get(0);
  }

  /** Every value of {@code name} in arrival order; empty when absent. */
  public List<String> all(String name) {
    List<String> values = byName.get(name.toLowerCase(Locale.ROOT));
    return values == null ? List.of() : values;
  }

  /** Whether {@code name} is present. */
  public boolean contains(String name) {
    return byName.containsKey(name.toLowerCase(Locale.ROOT));
  }

  /** All headers, names lower-cased and sorted, values in arrival order. */
  public Map<String, List<String>> asMap() {
    return byName;
  }

  /** A builder starting from these headers. */
  public Builder toBuilder() {
    Builder b = new Builder();
    byName.forEach((n, vs) -> vs.forEach(v -> b.add(n, v)));
    return b;
  }

  @Override
  public String toString() {
    // Values may carry signatures or credentials: never print them.
    return "Headers" + byName.keySet();
  }

  /** Accumulates headers; not thread-safe. */
  public static final class Builder {
    private final TreeMap<String, List<String>> byName = new TreeMap<>();

    private Builder() {}

    /** Adds one value of {@code name}. */
    public Builder add(String name, String value) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
      byName.computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(value);
      return this;
    }

    /** Replaces every value of {@code name} with {@code value}. */
    public Builder set(String name, String value) {
      remove(name);
      return add(name, value);
    }

    /** Removes {@code name}. */
    public Builder remove(String name) {
      byName.remove(name.toLowerCase(Locale.ROOT));
      return this;
    }

    /** The immutable headers. */
    public Headers build() {
      TreeMap<String, List<String>> copy = new TreeMap<>();
      byName.forEach((n, vs) -> copy.put(n, List.copyOf(vs)));
      return new Headers(copy);
    }
  }
}
