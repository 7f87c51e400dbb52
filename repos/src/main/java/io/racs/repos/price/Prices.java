package io.racs.repos.price;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;
import java.util.Objects;

/**
 * One provider's prices, in US dollars: per 1,000 requests of each kind of repository call, and per
 * GB of data transfer out (GB as AWS bills it, 2^30 bytes). Exact decimals, so that a table written
 * in a file is priced as written.
 *
 * <p>The repository calls map to S3 requests one to one ({@code put} a PutObject, {@code get} a
 * GetObject, {@code head} a HeadObject, {@code list} a ListObjectsV2 page, {@code delete} a
 * DeleteObject, {@code probe} a HeadBucket, which S3 bills among "all other requests").
 *
 * @param putPer1000 PUT requests (S3: "PUT, COPY, POST, LIST requests")
 * @param listPer1000 LIST requests (S3 bills them as PUTs)
 * @param getPer1000 GET requests (S3: "GET, SELECT, and all other requests")
 * @param headPer1000 HEAD requests (S3: among "all other requests", priced as a GET)
 * @param deletePer1000 DELETE requests (free on S3)
 * @param otherPer1000 every other call ({@code probe}: a HeadBucket), priced as a GET on S3
 * @param transferOutPerGB data returned by GETs, per 2^30 bytes (S3: data transfer out to the
 *     internet, the first tier)
 */
public record Prices(
    BigDecimal putPer1000,
    BigDecimal listPer1000,
    BigDecimal getPer1000,
    BigDecimal headPer1000,
    BigDecimal deletePer1000,
    BigDecimal otherPer1000,
    BigDecimal transferOutPerGB) {

  /** Bytes in one billed GB: AWS bills data in binary gigabytes. */
  public static final BigDecimal BYTES_PER_GB = BigDecimal.valueOf(1L << 30);

  /**
   * AWS S3 Standard, US East (N. Virginia), as published on https://aws.amazon.com/s3/pricing/
   * (read 2026-11-24 through secondary copies of that page; the page itself renders its prices from
   * scripts): PUT, COPY, POST, LIST requests $0.005 per 1,000; GET, SELECT and all other requests
   * $0.0004 per 1,000; DELETE and CANCEL requests free; data transfer out to the internet $0.09 per
   * GB from 100 GB to 10 TB a month (the first 100 GB a month are free across AWS; this table
   * prices every byte at the first paid tier). Storage (per GB-month) is not a per-operation cost
   * and is left out.
   */
  public static final Prices AWS_S3_STANDARD_US_EAST_1 =
      new Prices(
          new BigDecimal("0.005"),
          new BigDecimal("0.005"),
          new BigDecimal("0.0004"),
          new BigDecimal("0.0004"),
          BigDecimal.ZERO,
          new BigDecimal("0.0004"),
          new BigDecimal("0.09"));

  /**
   * Google Cloud Storage Standard, a region (us-central1), as published on
   * https://cloud.google.com/storage/pricing (read 2026-12-02 through a transcription of that page
   * made 2026-09-20, which quotes each price verbatim; the page itself renders its tables from
   * scripts): Class A operations $0.005 per 1,000, Class B operations $0.0004 per 1,000. The
   * repository calls fall in the page's classes as object uploads and listings (Class A), object
   * reads and metadata reads, bucket metadata included (Class B), and deletes (free). Network
   * egress to the internet (worldwide destinations, 0 to 10 TiB a month) $0.12 per GiB; this table
   * prices every byte at that first tier. Storage, $0.000027397 per GiB-hour (about $0.020 per
   * GiB-month of 730 hours), is not a per-operation cost and is left out.
   */
  public static final Prices GCS_STANDARD_US_CENTRAL1 =
      new Prices(
          new BigDecimal("0.005"),
          new BigDecimal("0.005"),
          new BigDecimal("0.0004"),
          new BigDecimal("0.0004"),
          BigDecimal.ZERO,
          new BigDecimal("0.0004"),
          new BigDecimal("0.12"));

  /** Checks that every price is present and not negative. */
  public Prices {
    for (BigDecimal p :
        new BigDecimal[] {
          putPer1000,
          listPer1000,
          getPer1000,
          headPer1000,
          deletePer1000,
          otherPer1000,
          transferOutPerGB
        }) {
      Objects.requireNonNull(p, "price");
      if (p.signum() < 0) {
        throw new IllegalArgumentException("price: " + p + " (expected: 0 or more)");
      }
    }
  }

  /**
   * The price of {@code calls} repository calls of {@code operation} ({@link #per1000}), exact: the
   * one place a count of calls becomes dollars (the bench's costs and the console's price so far).
   */
  public BigDecimal requests(String operation, BigDecimal calls) {
    return per1000(operation).multiply(calls).divide(THOUSAND);
  }

  /**
   * The price of {@code bytes} returned by GETs as data transfer out, to {@code math}'s precision:
   * the one place bytes become dollars.
   */
  public BigDecimal transferOut(BigDecimal bytes, MathContext math) {
    return bytes.multiply(transferOutPerGB).divide(BYTES_PER_GB, math);
  }

  private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

  /**
   * The price of 1,000 repository calls of {@code operation}, a label as the reports write it
   * ({@code put}, {@code get}, {@code head}, {@code list}, {@code delete}, {@code probe}).
   */
  public BigDecimal per1000(String operation) {
    return switch (operation.toLowerCase(Locale.ROOT)) {
      case "put" -> putPer1000;
      case "list" -> listPer1000;
      case "get" -> getPer1000;
      case "head" -> headPer1000;
      case "delete" -> deletePer1000;
      default -> otherPer1000;
    };
  }
}
