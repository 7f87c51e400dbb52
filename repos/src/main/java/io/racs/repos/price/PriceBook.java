package io.racs.repos.price;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.repos.config.ConfigSection;
import io.racs.repos.config.RepositoryConfig;
import io.racs.repos.config.RepositorySetConfig;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The prices a run's costs are computed at: a default table, and per repository a table of its own.
 * The default is AWS S3 Standard's ({@link Prices#AWS_S3_STANDARD_US_EAST_1}); a repository whose
 * type has a published table of its own ({@link PublishedPrices}: {@code gcs}) is priced at that
 * one; the optional top-level {@code prices:} section of the repository-set file ({@code --config})
 * overrides both, a repository's entry over its type's table. The bench reads this section; the
 * proxy ignores it, so one file serves both:
 *
 * <pre>{@code
 * prices:                        # US dollars; every field optional
 *   default:                     # every repository without an entry below, and the baseline
 *     putPer1000: 0.005          #   "one repository directly"; fields left out keep AWS S3
 *     listPer1000: 0.005         #   Standard's (us-east-1) prices
 *     getPer1000: 0.0004
 *     headPer1000: 0.0004
 *     deletePer1000: 0
 *     otherPer1000: 0.0004       # probe (HeadBucket)
 *     transferOutPerGB: 0.09     # per 2^30 bytes returned by GETs
 *   repositories:
 *     a3: {getPer1000: 0.0005, transferOutPerGB: 0}   # fields left out keep default's
 * }</pre>
 *
 * <p>An unknown field, a repository the file does not define, a value that is not a decimal number
 * or a negative price is one {@link io.racs.repos.config.ConfigException} line naming the field
 * (the command exits 2).
 *
 * @param defaults the prices of every repository without its own, and of the direct baseline
 * @param repositories prices by repository name
 */
public record PriceBook(Prices defaults, Map<String, Prices> repositories) {
  private static final List<String> SECTION_FIELDS = List.of("default", "repositories");

  /** A book; {@code repositories} is copied. */
  public PriceBook {
    Objects.requireNonNull(defaults, "defaults");
    repositories = Map.copyOf(repositories);
  }

  /** AWS S3 Standard's prices for every repository. */
  public static PriceBook awsDefault() {
    return new PriceBook(Prices.AWS_S3_STANDARD_US_EAST_1, Map.of());
  }

  /** The prices of repository {@code name}. */
  public Prices of(String name) {
    return repositories.getOrDefault(name, defaults);
  }

  /** True when the book is AWS S3 Standard's for every repository (nothing overridden). */
  public boolean isAwsDefault() {
    return defaults.equals(Prices.AWS_S3_STANDARD_US_EAST_1)
        && repositories.values().stream().allMatch(defaults::equals);
  }

  /**
   * Where the prices come from, for reports: the published tables in use (with their pages and the
   * dates read), after {@code the prices section of --config over} when the file changed any.
   */
  public String source() {
    List<Prices> used = new ArrayList<>();
    used.add(defaults);
    used.addAll(repositories.values());
    List<String> published =
        used.stream()
            .map(PublishedPrices::of)
            .flatMap(Optional::stream)
            .distinct()
            .map(PublishedPrices::source)
            .toList();
    boolean overridden = used.stream().anyMatch(p -> PublishedPrices.of(p).isEmpty());
    String tables =
        published.isEmpty()
            ? PublishedPrices.AWS_S3_STANDARD_US_EAST_1.source()
            : String.join("; ", published);
    return overridden ? "the prices section of --config over " + tables : tables;
  }

  /**
   * The prices of {@code set}'s file: its {@code prices:} section over each repository's published
   * table ({@link PublishedPrices#forType}: its type's, or the default table).
   */
  public static PriceBook from(RepositorySetConfig set) {
    return from(set, PriceBook::typeTable);
  }

  /** As {@link #from(RepositorySetConfig)}, with {@code typeTable} giving each type's own table. */
  static PriceBook from(RepositorySetConfig set, Function<String, Optional<Prices>> typeTable) {
    ConfigSection section = set.configSection("prices");
    JsonNode node = section.node();
    if (node == null || node.isNull()) {
      return byType(set, typeTable, Prices.AWS_S3_STANDARD_US_EAST_1, Map.of());
    }
    if (!node.isObject()) {
      throw section.error("", "expected a mapping with default and repositories");
    }
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!SECTION_FIELDS.contains(name)) {
        throw section.error(name, "unknown field (expected one of: default, repositories)");
      }
    }
    Prices defaults =
        prices(section, "default", node.get("default"), Prices.AWS_S3_STANDARD_US_EAST_1);
    Map<String, JsonNode> entries = new LinkedHashMap<>();
    JsonNode each = node.get("repositories");
    if (each != null && !each.isNull()) {
      if (!each.isObject()) {
        throw section.error("repositories", "expected a mapping of repository names to prices");
      }
      List<String> known = set.repositories().stream().map(RepositoryConfig::name).toList();
      for (Map.Entry<String, JsonNode> e : each.properties()) {
        String field = "repositories." + e.getKey();
        if (!known.contains(e.getKey())) {
          throw section.error(
              field, "unknown repository (expected one of: " + String.join(", ", known) + ")");
        }
        entries.put(e.getKey(), e.getValue());
      }
    }
    Map<String, Prices> repositories = new LinkedHashMap<>();
    for (RepositoryConfig r : set.repositories()) {
      JsonNode entry = entries.get(r.name());
      if (entry != null) {
        Prices base = typeTable.apply(r.backend().type()).orElse(defaults);
        repositories.put(r.name(), prices(section, "repositories." + r.name(), entry, base));
      }
    }
    return byType(set, typeTable, defaults, repositories);
  }

  /**
   * A book of {@code defaults} and {@code given}, plus the published table of each other repository
   * whose type has one of its own.
   */
  private static PriceBook byType(
      RepositorySetConfig set,
      Function<String, Optional<Prices>> typeTable,
      Prices defaults,
      Map<String, Prices> given) {
    Map<String, Prices> repositories = new LinkedHashMap<>(given);
    for (RepositoryConfig r : set.repositories()) {
      if (!repositories.containsKey(r.name())) {
        typeTable.apply(r.backend().type()).ifPresent(p -> repositories.put(r.name(), p));
      }
    }
    return new PriceBook(defaults, repositories);
  }

  /**
   * The published table of {@code type} when it is not the default's own ({@code s3} and {@code
   * minio} are priced by the default table, which the file may change).
   */
  private static Optional<Prices> typeTable(String type) {
    return PublishedPrices.forType(type)
        .filter(p -> p != PublishedPrices.AWS_S3_STANDARD_US_EAST_1)
        .map(PublishedPrices::prices);
  }

  /** The fields of one price table, as written (text), null when left out. */
  private record Fields(
      String putPer1000,
      String listPer1000,
      String getPer1000,
      String headPer1000,
      String deletePer1000,
      String otherPer1000,
      String transferOutPerGB) {}

  private static Prices prices(ConfigSection section, String field, JsonNode node, Prices base) {
    Fields f = section.bind(field, node, Fields.class, "field");
    return new Prices(
        price(section, field + ".putPer1000", f.putPer1000(), base.putPer1000()),
        price(section, field + ".listPer1000", f.listPer1000(), base.listPer1000()),
        price(section, field + ".getPer1000", f.getPer1000(), base.getPer1000()),
        price(section, field + ".headPer1000", f.headPer1000(), base.headPer1000()),
        price(section, field + ".deletePer1000", f.deletePer1000(), base.deletePer1000()),
        price(section, field + ".otherPer1000", f.otherPer1000(), base.otherPer1000()),
        price(section, field + ".transferOutPerGB", f.transferOutPerGB(), base.transferOutPerGB()));
  }

  private static BigDecimal price(
      ConfigSection section, String field, String text, BigDecimal fallback) {
    if (text == null) {
      return fallback;
    }
    BigDecimal value;
    try {
      value = new BigDecimal(text.trim());
    } catch (NumberFormatException e) {
      throw section.error(
          field, "expected a price in US dollars such as 0.005, got '" + text + "'");
    }
    if (value.signum() < 0) {
      throw section.error(field, text + " (expected: 0 or more)");
    }
    return value;
  }
}
