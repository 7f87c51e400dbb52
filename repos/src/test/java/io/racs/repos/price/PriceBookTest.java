package io.racs.repos.price;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.repos.config.ConfigException;
import io.racs.repos.config.RepositoryConfigLoader;
import java.math.BigDecimal;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Proves the {@code prices:} section of a repository-set file: absent, it is AWS S3 Standard's
 * table; a default table and each repository's table override only the fields they name; and an
 * unknown field, an unknown repository, a negative price or a value that is not a number is one
 * line naming the field.
 */
class PriceBookTest {
  private static final String REPOSITORIES =
      """
      repositories:
        - name: a0
          type: memory
        - name: a1
          type: memory
      """;

  private static PriceBook parse(String prices) {
    return PriceBook.from(
        RepositoryConfigLoader.create().parse(REPOSITORIES + prices, "racs.yaml"));
  }

  private static BigDecimal d(String text) {
    return new BigDecimal(text);
  }

  @Test
  void from_whenNoPricesSection_isAwsS3StandardForEveryRepository() {
    PriceBook book = parse("");
    assertThat(book.isAwsDefault()).isTrue();
    Prices a0 = book.of("a0");
    assertThat(a0.per1000("put")).isEqualByComparingTo("0.005");
    assertThat(a0.per1000("list")).isEqualByComparingTo("0.005");
    assertThat(a0.per1000("get")).isEqualByComparingTo("0.0004");
    assertThat(a0.per1000("head")).isEqualByComparingTo("0.0004");
    assertThat(a0.per1000("delete")).isEqualByComparingTo("0");
    assertThat(a0.per1000("probe")).isEqualByComparingTo("0.0004");
    assertThat(a0.transferOutPerGB()).isEqualByComparingTo("0.09");
  }

  @Test
  void from_whenDefaultAndRepositoryTables_overrideOnlyTheFieldsTheyName() {
    PriceBook book =
        parse(
            """
            prices:
              default: {getPer1000: 0.001, transferOutPerGB: "0.05"}
              repositories:
                a1: {listPer1000: 0.0045, transferOutPerGB: 0}
            """);
    assertThat(book.isAwsDefault()).isFalse();
    Prices a0 = book.of("a0");
    assertThat(a0.getPer1000()).isEqualByComparingTo("0.001");
    assertThat(a0.transferOutPerGB()).isEqualByComparingTo("0.05");
    assertThat(a0.putPer1000()).isEqualByComparingTo("0.005"); // AWS, not overridden
    Prices a1 = book.of("a1");
    assertThat(a1.listPer1000()).isEqualByComparingTo("0.0045");
    assertThat(a1.transferOutPerGB()).isEqualByComparingTo("0");
    assertThat(a1.getPer1000()).isEqualByComparingTo("0.001"); // from default, not AWS
    assertThat(book.defaults()).isEqualTo(a0);
    // A price is kept as written: no binary rounding of 0.0045.
    assertThat(a1.listPer1000()).isEqualTo(d("0.0045"));
  }

  @Test
  void from_whenAFieldIsUnknown_failsWithOneLineListingTheFields() {
    assertThatThrownBy(() -> parse("prices:\n  default: {gets: 0.1}\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("racs.yaml: prices: field 'default.gets': unknown field")
        .hasMessageContaining("getPer1000")
        .hasMessageNotContaining("\n");
    assertThatThrownBy(() -> parse("prices:\n  defaults: {getPer1000: 0.1}\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "racs.yaml: prices: field 'defaults': unknown field (expected one of: default,"
                + " repositories)");
  }

  @Test
  void from_whenARepositoryIsNotInTheFile_failsNamingTheKnownOnes() {
    assertThatThrownBy(() -> parse("prices:\n  repositories:\n    a9: {getPer1000: 0}\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "racs.yaml: prices: field 'repositories.a9': unknown repository (expected one of:"
                + " a0, a1)");
  }

  @Test
  void from_whenAPriceIsNegativeOrNotANumber_failsNamingTheField() {
    assertThatThrownBy(() -> parse("prices:\n  default: {putPer1000: -0.005}\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("racs.yaml: prices: field 'default.putPer1000': -0.005 (expected: 0 or more)");
    assertThatThrownBy(
            () -> parse("prices:\n  repositories:\n    a0: {transferOutPerGB: 9 cents}\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "racs.yaml: prices: field 'repositories.a0.transferOutPerGB': expected a price in US"
                + " dollars such as 0.005, got '9 cents'");
    assertThatThrownBy(() -> parse("prices: [0.005]\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("racs.yaml: prices: expected a mapping with default and repositories");
  }

  @Test
  void from_whenATypeHasItsOwnTable_pricesItThereAndItsEntryOverridesThatTable() {
    // The gcs type is another backend's, not in every build: the mapping is checked with memory
    // standing in for it, and PublishedPrices' own table below.
    Function<String, Optional<Prices>> tables =
        type -> Optional.of(Prices.GCS_STANDARD_US_CENTRAL1).filter(p -> type.equals("memory"));
    String file = REPOSITORIES.replace("a1\n    type: memory", "a1\n    type: fs\n    path: /tmp");
    PriceBook plain = PriceBook.from(RepositoryConfigLoader.create().parse(file, "r.yaml"), tables);
    assertThat(plain.of("a0")).isEqualTo(Prices.GCS_STANDARD_US_CENTRAL1);
    assertThat(plain.of("a1")).isEqualTo(Prices.AWS_S3_STANDARD_US_EAST_1);
    assertThat(plain.source())
        .isEqualTo(
            PublishedPrices.AWS_S3_STANDARD_US_EAST_1.source()
                + "; "
                + PublishedPrices.GCS_STANDARD_US_CENTRAL1.source());
    PriceBook overridden =
        PriceBook.from(
            RepositoryConfigLoader.create()
                .parse(file + "prices:\n  repositories:\n    a0: {getPer1000: 1}\n", "r.yaml"),
            tables);
    assertThat(overridden.of("a0").getPer1000()).isEqualByComparingTo("1");
    assertThat(overridden.of("a0").transferOutPerGB()).isEqualByComparingTo("0.12"); // GCS's
    assertThat(overridden.source()).startsWith("the prices section of --config over ");
  }

  @Test
  void publishedPrices_mapTheTypes() {
    assertThat(PublishedPrices.forType("gcs")).contains(PublishedPrices.GCS_STANDARD_US_CENTRAL1);
    assertThat(PublishedPrices.forType("s3")).contains(PublishedPrices.AWS_S3_STANDARD_US_EAST_1);
    assertThat(PublishedPrices.forType("minio"))
        .contains(PublishedPrices.AWS_S3_STANDARD_US_EAST_1);
    // No Azure table: its page's prices could not be read (see PublishedPrices).
    assertThat(PublishedPrices.forType("azure")).isEmpty();
    assertThat(PublishedPrices.forType("fs")).isEmpty();
  }

  @Test
  void gcsStandard_isThePublishedTable() {
    Prices gcs = Prices.GCS_STANDARD_US_CENTRAL1;
    assertThat(gcs.per1000("put")).isEqualByComparingTo("0.005");
    assertThat(gcs.per1000("list")).isEqualByComparingTo("0.005");
    assertThat(gcs.per1000("get")).isEqualByComparingTo("0.0004");
    assertThat(gcs.per1000("head")).isEqualByComparingTo("0.0004");
    assertThat(gcs.per1000("delete")).isEqualByComparingTo("0");
    assertThat(gcs.per1000("probe")).isEqualByComparingTo("0.0004");
    assertThat(gcs.transferOutPerGB()).isEqualByComparingTo("0.12");
  }
}
