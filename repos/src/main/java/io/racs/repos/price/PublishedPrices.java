package io.racs.repos.price;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The providers' published price tables the bench knows, each with where and when it was read, and
 * the repository types it prices: what a repository is priced at when the {@code prices:} section
 * gives it no table of its own.
 *
 * <p>{@code s3} and {@code minio} repositories are priced at AWS S3 Standard's table, which is also
 * the default of every other type ({@code fs}, {@code memory}). {@code gcs} repositories are priced
 * at Google Cloud Storage Standard's. {@code azure} has no table yet: Azure's pricing page renders
 * its prices from scripts, and no copy of it with the numbers (Blob Hot or Cool, LRS) could be
 * read, so an {@code azure} repository keeps the default table until one is added here or its
 * prices are given under {@code prices.repositories}.
 */
public enum PublishedPrices {
  /** {@link Prices#AWS_S3_STANDARD_US_EAST_1}. */
  AWS_S3_STANDARD_US_EAST_1(
      Prices.AWS_S3_STANDARD_US_EAST_1,
      "AWS S3 Standard, us-east-1, https://aws.amazon.com/s3/pricing/ (read 2026-11-24)",
      "s3",
      "minio"),
  /** {@link Prices#GCS_STANDARD_US_CENTRAL1}. */
  GCS_STANDARD_US_CENTRAL1(
      Prices.GCS_STANDARD_US_CENTRAL1,
      "Google Cloud Storage Standard, us-central1, https://cloud.google.com/storage/pricing"
          + " (read 2026-12-02)",
      "gcs");

  private final Prices prices;
  private final String source;
  private final List<String> types;

  PublishedPrices(Prices prices, String source, String... types) {
    this.prices = prices;
    this.source = source;
    this.types = List.of(types);
  }

  /** The table. */
  public Prices prices() {
    return prices;
  }

  /** The provider, tier and region, the page and the date it was read, for reports. */
  public String source() {
    return source;
  }

  /** The table of repositories of {@code type} (as the {@code type:} field says), if one is. */
  public static Optional<PublishedPrices> forType(String type) {
    return Arrays.stream(values()).filter(p -> p.types.contains(type)).findFirst();
  }

  /** The published table equal to {@code prices}, if one is. */
  public static Optional<PublishedPrices> of(Prices prices) {
    return Arrays.stream(values()).filter(p -> p.prices.equals(prices)).findFirst();
  }
}
