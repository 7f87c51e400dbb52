package io.racs.proxy.s3.policy;

import java.util.AbstractMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A request's condition values as {@link Conditions#normalize} leaves them: keys canonical, maps
 * and lists immutable. Marking them lets a {@link RequestContext} take them as they are, so a
 * request's values are normalised once ({@link RequestContext#canonical}), not once per decision.
 *
 * <p>Computed values ({@link RequestContext#computed}) are asked of their source only when a
 * condition names their key: a decision whose statements have no condition that applies computes
 * none. The source must answer the same for the same key every time. Immutable; thread-safe.
 */
final class CanonicalValues extends AbstractMap<String, List<String>> {
  private final Map<String, List<String>> values;
  private final Function<String, List<String>> source;

  /** {@code values} must be immutable, with canonical keys and immutable lists. */
  CanonicalValues(Map<String, List<String>> values) {
    this.values = values;
    this.source = null;
  }

  /** Values asked of {@code source} by canonical key; it answers null for a key with none. */
  CanonicalValues(Function<String, List<String>> source) {
    this.values = null;
    this.source = source;
  }

  @Override
  public List<String> get(Object key) {
    if (values != null) {
      return values.get(key);
    }
    return key instanceof String k && Conditions.KEYS.contains(k) ? source.apply(k) : null;
  }

  @Override
  public boolean containsKey(Object key) {
    return get(key) != null;
  }

  @Override
  public int size() {
    return entrySet().size();
  }

  @Override
  public Set<Entry<String, List<String>>> entrySet() {
    if (values != null) {
      return values.entrySet();
    }
    Map<String, List<String>> all = new HashMap<>();
    for (String key : Conditions.KEYS) {
      List<String> v = source.apply(key);
      if (v != null) {
        all.put(key, List.copyOf(v));
      }
    }
    return Map.copyOf(all).entrySet();
  }
}
