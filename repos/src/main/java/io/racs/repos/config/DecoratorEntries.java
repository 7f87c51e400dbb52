package io.racs.repos.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.repos.RepositoryException;
import io.racs.repos.decorator.LatencyRepository;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** The {@code decorators:} of a repository entry: latency, faulty and metered. */
final class DecoratorEntries {
  private static final List<String> DECORATORS = List.of("latency", "faulty", "metered");
  private static final String DURATION_EXAMPLE = BackendEntry.DURATION_EXAMPLE;

  private DecoratorEntries() {}

  private record LatencyOptions(
      String delay,
      String jitter,
      String responseDelay,
      String responseJitter,
      Long seed,
      String lateRate,
      String lateDelay) {}

  private record FaultyOptions(
      Boolean outage,
      Boolean corruptReads,
      String failKeys,
      Long failCall,
      String failRate,
      String kind,
      Long seed) {}

  private record MeteredOptions() {}

  static DecoratorConfig decorator(ConfigSection entry, JsonNode value, String field) {
    String kind;
    JsonNode options;
    if (value.isTextual()) {
      kind = value.asText();
      options = null;
    } else if (value.isObject() && value.size() == 1) {
      Map.Entry<String, JsonNode> only = value.properties().iterator().next();
      kind = only.getKey();
      options = only.getValue();
    } else {
      throw entry.error(field, "expected a decorator name or {name: {options}}");
    }
    String at = field + "." + kind;
    return switch (kind) {
      case "latency" -> {
        LatencyOptions o = entry.bind(at, options, LatencyOptions.class, "option");
        yield new DecoratorConfig.Latency(
            new LatencyRepository.Delay(
                delay(entry, at + ".delay", o.delay()), delay(entry, at + ".jitter", o.jitter())),
            new LatencyRepository.Delay(
                delay(entry, at + ".responseDelay", o.responseDelay()),
                delay(entry, at + ".responseJitter", o.responseJitter())),
            new LatencyRepository.Late(
                rate(entry, at + ".lateRate", o.lateRate()),
                delay(entry, at + ".lateDelay", o.lateDelay())),
            o.seed() == null ? 1 : o.seed());
      }
      case "faulty" -> faulty(entry, at, entry.bind(at, options, FaultyOptions.class, "option"));
      case "metered" -> {
        if (options != null && options.isObject() && !options.isEmpty()) {
          throw entry.error(
              at + "." + options.fieldNames().next(), "unknown option (metered takes none)");
        }
        entry.bind(at, options, MeteredOptions.class, "option");
        yield new DecoratorConfig.Metered();
      }
      default ->
          throw entry.error(
              field,
              "unknown decorator '"
                  + kind
                  + "' (expected one of: "
                  + String.join(", ", DECORATORS)
                  + ")");
    };
  }

  private static double rate(ConfigSection entry, String field, String text) {
    if (text == null) {
      return 0;
    }
    double rate;
    try {
      rate = Double.parseDouble(text);
    } catch (NumberFormatException e) {
      rate = -1;
    }
    if (!(rate >= 0 && rate <= 1)) {
      throw entry.error(field, "'" + text + "' (expected: a number from 0 to 1)");
    }
    return rate;
  }

  private static Duration delay(ConfigSection entry, String field, String text) {
    return entry.duration(field, text, DURATION_EXAMPLE).orElse(Duration.ZERO);
  }

  private static DecoratorConfig faulty(ConfigSection entry, String at, FaultyOptions o) {
    Optional<Pattern> failKeys = Optional.empty();
    if (o.failKeys() != null) {
      try {
        failKeys = Optional.of(Pattern.compile(o.failKeys()));
      } catch (PatternSyntaxException e) {
        throw entry.error(at + ".failKeys", "not a regular expression: " + e.getDescription());
      }
    }
    OptionalLong failCall =
        o.failCall() == null
            ? OptionalLong.empty()
            : OptionalLong.of(entry.range(at + ".failCall", o.failCall(), 1, 1, Long.MAX_VALUE));
    double failRate = 0;
    if (o.failRate() != null) {
      try {
        failRate = Double.parseDouble(o.failRate());
      } catch (NumberFormatException e) {
        failRate = -1;
      }
      if (!(failRate >= 0 && failRate <= 1)) {
        throw entry.error(
            at + ".failRate", "'" + o.failRate() + "' (expected: a number from 0 to 1)");
      }
    }
    String kindName = o.kind() == null ? "UNAVAILABLE" : o.kind();
    RepositoryException.Kind kind;
    try {
      kind = RepositoryException.Kind.valueOf(kindName.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw entry.error(
          at + ".kind",
          "'"
              + kindName
              + "' (expected one of: "
              + Arrays.toString(RepositoryException.Kind.values())
              + ")");
    }
    return new DecoratorConfig.Faulty(
        Boolean.TRUE.equals(o.outage()),
        Boolean.TRUE.equals(o.corruptReads()),
        failKeys,
        failCall,
        failRate,
        kind,
        o.seed() == null ? 1 : o.seed());
  }
}
