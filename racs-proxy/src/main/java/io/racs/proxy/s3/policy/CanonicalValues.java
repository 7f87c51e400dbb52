package io.racs.proxy.s3.policy;

import java.util.AbstractMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A request's condition values as {@link Conditions#normalize} leaves them: keys canonical, maps
 * and lists immutable. Marking them lets a {@link RequestContext} take them as they are, so a
 * request's values are normalised once ({@link RequestContext#canonical}), not once per decision.
 * Immutable; thread-safe.
 */
final class CanonicalValues extends AbstractMap<String, List<String>> {
  private final Map<String, List<String>> values;

  /** {@code values} must be immutable, with canonical keys and immutable lists. */
  CanonicalValues(Map<String, List<String>> values) {
    this.values = values;
  }

  @Override
  public List<String> get(Object key) {
    return values.get(key);
  }

  @Override
  public boolean containsKey(Object key) {
    return values.containsKey(key);
  }

  @Override
  public int size() {
    return values.size();
  }

  @Override
  public Set<Entry<String, List<String>>> entrySet() {
    return values.entrySet();
  }
}
