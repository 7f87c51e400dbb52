package io.racs.proxy.cli;

import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.reshape.MoveEstimate;
import io.racs.proxy.store.reshape.MovePlan;
import io.racs.repos.price.PriceBook;
import io.racs.repos.price.Prices;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code racs reshape plan}: what moving the array into the layout of another file would cost,
 * changing nothing. It checks the target (its {@code array:} section, the repositories it keeps,
 * adds and retires by name, each added one reachable and empty), walks every version of every
 * bucket on a read quorum, and prints per repository the requests and bytes the move reads and
 * writes (as {@link MovePlan} counts them), their price in the price book's terms (each repository
 * at the prices of the file that defines it, the target's first) and the time the bytes take at
 * {@code --rate}.
 */
@Command(
    name = "plan",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Print what reshaping the array into --to's layout would read, write and cost.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:planned (printed; nothing changed)",
      "1:the array could not be read (a repository unreachable, too few answered)",
      "2:invalid command line, configuration or target (an added repository not empty); nothing"
          + " changed"
    })
public final class ReshapePlanCommand implements Callable<Integer> {
  private static final MathContext MATH = MathContext.DECIMAL64;

  @Spec CommandSpec spec;

  @Mixin ReshapeOptions.Config config;

  @Mixin ReshapeOptions.Target target;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    target.rate(); // checked before anything is read
    ReshapeTarget t = ReshapeTarget.load(config.path, target.path);
    MovePlan plan = new MovePlan(t.before, new MovePlan.Target(t.to.store(), t.after));
    try (ErasureStore store = t.from.openReadOnly()) {
      out.printf("reshape plan: array %s, %s%n", store.arrayId(), t.describe());
      out.println("  " + t.changes());
      walk(store, plan);
    }
    print(
        out,
        plan,
        t.before,
        t.after,
        PriceBook.from(t.from.file()),
        PriceBook.from(t.to.file()),
        t.to);
    return ExitCodes.OK;
  }

  /** Every version of every bucket, as ListObjectVersions sees them: each once. */
  static void walk(ErasureStore store, MovePlan plan) {
    for (ObjectStore.BucketInfo bucket : store.listBuckets()) {
      long entries = 0;
      String keyMarker = null;
      String versionMarker = null;
      while (true) {
        ObjectStore.VersionListResult page =
            store.listVersions(
                bucket.name(),
                new ObjectStore.VersionListRequest("", null, keyMarker, versionMarker, 1000));
        for (ObjectStore.ListedVersion v : page.versions()) {
          plan.add(v.meta());
          entries++;
        }
        if (!page.truncated()) {
          break;
        }
        keyMarker = page.nextKeyMarker().orElse(null);
        versionMarker = page.nextVersionIdMarker().orElse(null);
      }
      plan.listed(entries);
    }
  }

  private void print(
      PrintWriter out,
      MovePlan plan,
      List<String> before,
      List<String> after,
      PriceBook current,
      PriceBook targetBook,
      ArrayConfig to) {
    out.printf(
        "  versions: %d, to move: %d (%s stored)%n",
        plan.versions(), plan.moved(), bytes(plan.storedBytes()));
    out.printf(
        "%-12s %-8s %9s %12s %9s %12s %7s %8s %12s%n",
        "repository",
        "role",
        "GET",
        "GET bytes",
        "PUT",
        "PUT bytes",
        "LIST",
        "DELETE",
        "price USD");
    BigDecimal total = BigDecimal.ZERO;
    for (Map.Entry<String, MovePlan.Work> e : plan.work().entrySet()) {
      String name = e.getKey();
      MovePlan.Work w = e.getValue();
      Prices prices =
          to.file().repository(name).isPresent() ? targetBook.of(name) : current.of(name);
      BigDecimal price = price(w, prices);
      total = total.add(price);
      out.printf(
          "%-12s %-8s %9d %12s %9d %12s %7d %8d %12s%n",
          name,
          role(name, before, after),
          w.gets(),
          bytes(w.getBytes()),
          w.puts(),
          bytes(w.putBytes()),
          w.lists(),
          w.deletes(),
          dollars(price));
    }
    out.printf("total price: %s USD%n", dollars(total));
    long moved = plan.bytesRead() + plan.bytesWritten();
    out.printf(
        "time at %s MB/s: %s (%s read + %s written)%n",
        BigDecimal.valueOf(target.rate()).stripTrailingZeros().toPlainString(),
        MoveEstimate.duration((long) Math.ceil(moved / (target.rate() * 1e6))),
        bytes(plan.bytesRead()),
        bytes(plan.bytesWritten()));
    if (plan.moved() == 0) {
      out.println("nothing to move: every version is in the target layout already");
    }
  }

  private static String role(String name, List<String> before, List<String> after) {
    return !before.contains(name) ? "added" : !after.contains(name) ? "retired" : "kept";
  }

  /** The price of one repository's work: requests per 1,000, and bytes read out per GB. */
  static BigDecimal price(MovePlan.Work w, Prices p) {
    return per1000(p.getPer1000(), w.gets())
        .add(per1000(p.putPer1000(), w.puts()))
        .add(per1000(p.listPer1000(), w.lists()))
        .add(per1000(p.deletePer1000(), w.deletes()))
        .add(
            BigDecimal.valueOf(w.getBytes())
                .divide(Prices.BYTES_PER_GB, MATH)
                .multiply(p.transferOutPerGB(), MATH));
  }

  private static BigDecimal per1000(BigDecimal price, long requests) {
    return price.multiply(BigDecimal.valueOf(requests)).divide(BigDecimal.valueOf(1000), MATH);
  }

  private static String dollars(BigDecimal amount) {
    return amount
        .setScale(amount.compareTo(BigDecimal.ONE) < 0 ? 6 : 2, RoundingMode.HALF_UP)
        .toPlainString();
  }

  /** Bytes as B, KiB, MiB, GiB or TiB, one decimal. */
  static String bytes(long n) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = n;
    int u = 0;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return u == 0 ? n + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }
}
