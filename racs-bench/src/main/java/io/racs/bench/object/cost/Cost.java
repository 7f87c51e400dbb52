package io.racs.bench.object.cost;

import io.racs.bench.object.run.IterationResult;
import io.racs.bench.object.run.PointResult;
import io.racs.bench.object.workload.Op;
import io.racs.repos.price.PriceBook;
import io.racs.repos.price.Prices;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * What {@link #OPERATIONS} client operations of one point cost at a {@link PriceBook}'s prices, in
 * US dollars, by kind of charge ({@code put}, {@code list}, {@code get}, {@code head}, {@code
 * delete}, {@code other} requests and {@code transferOut} bytes): on the array, and on one
 * repository directly.
 *
 * <ul>
 *   <li><b>Array</b>, measured: each repository's calls of the point's iterations, priced at that
 *       repository's prices, plus the bytes its GETs returned priced as data transfer out, divided
 *       by every client request the iterations completed (as {@code repositoryRequestsPerOp} is).
 *   <li><b>Direct</b>, the same client operations sent to one repository at the default prices: one
 *       request of the operation's own kind per client operation (a LIST one page), and a GET's
 *       bytes as data transfer out. A GET's bytes are the point's measured bytes per operation for
 *       a GET workload; in a mix, the mean object size (or the range's length, if smaller). A mix
 *       weighs each operation by the successful operations of each kind it completed.
 * </ul>
 *
 * <p>Transfer is priced as if the proxy ran outside the providers' regions, so that every byte a
 * repository returns leaves it; a proxy inside a provider's region pays no transfer on that
 * provider. Uploads (transfer in) are free on S3 and not priced. LIST response bodies are not
 * counted as transfer.
 *
 * @param array the array's cost by kind of charge
 * @param direct the direct baseline's cost by kind of charge
 */
public record Cost(Map<String, BigDecimal> array, Map<String, BigDecimal> direct) {
  /** The number of client operations a cost is given for. */
  public static final long OPERATIONS = 1_000_000;

  /** The kinds of charge, in report order. */
  public static final java.util.List<String> KINDS =
      java.util.List.of("put", "list", "get", "head", "delete", "other", "transferOut");

  private static final MathContext MATH = MathContext.DECIMAL64;
  private static final BigDecimal MILLION = BigDecimal.valueOf(OPERATIONS);

  /** Copies both maps. */
  public Cost {
    array = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(array));
    direct = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(direct));
  }

  /** The array's total. */
  public BigDecimal arrayTotal() {
    return array.values().stream().reduce(BigDecimal.ZERO, BigDecimal::add);
  }

  /** The direct baseline's total. */
  public BigDecimal directTotal() {
    return direct.values().stream().reduce(BigDecimal.ZERO, BigDecimal::add);
  }

  /** The array's total over the direct one; empty when the direct operations are free. */
  public Optional<Double> ratio() {
    BigDecimal d = directTotal();
    return d.signum() == 0
        ? Optional.empty()
        : Optional.of(arrayTotal().divide(d, MATH).doubleValue());
  }

  /**
   * The cost of point {@code p} at {@code book}'s prices; empty when the point did not count
   * repository calls (not an in-process array, or run through agents) or completed no request.
   */
  public static Optional<Cost> of(PointResult p, PriceBook book) {
    IterationResult all = p.merged();
    long requests = all.requests.getTotalCount();
    if (all.repositoryCallsByRepository.isEmpty() || requests == 0) {
      return Optional.empty();
    }
    BigDecimal n = BigDecimal.valueOf(requests);
    Map<String, BigDecimal> array = zero();
    all.repositoryCallsByRepository.forEach(
        (repository, calls) -> {
          Prices prices = book.of(repository);
          calls.forEach(
              (op, count) ->
                  array.merge(
                      kind(op),
                      prices.requests(op, BigDecimal.valueOf(count).multiply(MILLION)),
                      BigDecimal::add));
        });
    all.repositoryReadBytes.forEach(
        (repository, bytes) ->
            array.merge(
                "transferOut",
                transfer(BigDecimal.valueOf(bytes), book.of(repository)),
                BigDecimal::add));
    array.replaceAll((kind, total) -> total.divide(n, MATH));
    return Optional.of(new Cost(array, direct(p, all, book.defaults())));
  }

  /** The same client operations on one repository at {@code prices}. */
  private static Map<String, BigDecimal> direct(PointResult p, IterationResult all, Prices prices) {
    Map<String, BigDecimal> direct = zero();
    Map<Op, BigDecimal> shares = new LinkedHashMap<>();
    BigDecimal getBytes;
    if (p.workload.mix().isSingle()) {
      shares.put(p.workload.mix().single(), BigDecimal.ONE);
      getBytes =
          all.ops == 0
              ? BigDecimal.ZERO
              : BigDecimal.valueOf(all.bytes).divide(BigDecimal.valueOf(all.ops), MATH);
    } else {
      long total = all.perOp.values().stream().mapToLong(Histogram::getTotalCount).sum();
      if (total > 0) {
        all.perOp.forEach(
            (op, h) ->
                shares.put(
                    op,
                    BigDecimal.valueOf(h.getTotalCount()).divide(BigDecimal.valueOf(total), MATH)));
      }
      double mean = p.workload.size().meanBytes();
      long range = p.workload.range().length();
      getBytes = BigDecimal.valueOf(range > 0 ? Math.min(range, mean) : mean);
    }
    shares.forEach(
        (op, share) -> {
          direct.merge(
              kind(op.label()),
              prices.requests(op.label(), share.multiply(MILLION)),
              BigDecimal::add);
          if (op == Op.GET) {
            direct.merge(
                "transferOut", transfer(getBytes.multiply(share), prices), BigDecimal::add);
          }
        });
    return direct;
  }

  /** {@link #OPERATIONS} times {@code bytes} as data transfer out at {@code prices}. */
  private static BigDecimal transfer(BigDecimal bytes, Prices prices) {
    return prices.transferOut(bytes.multiply(MILLION), MATH);
  }

  private static String kind(String op) {
    return KINDS.contains(op) ? op : "other";
  }

  private static Map<String, BigDecimal> zero() {
    Map<String, BigDecimal> m = new LinkedHashMap<>();
    KINDS.forEach(k -> m.put(k, BigDecimal.ZERO));
    return m;
  }
}
