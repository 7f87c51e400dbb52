package io.racs.bench.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.racs.bench.object.cost.Cost;
import io.racs.bench.object.run.PointResult;
import io.racs.bench.object.run.RunResult;
import io.racs.repos.price.PriceBook;
import io.racs.repos.price.Prices;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The cost part of every report: for each point that counted its repository calls (an in-process
 * array), the repository requests per client operation by kind and what {@link Cost#OPERATIONS}
 * client operations cost on the array and on one repository directly, at the run's {@link
 * PriceBook}. The arithmetic is {@link Cost}'s; this class only lays it out.
 */
public final class CostTable {
  private CostTable() {}

  /** One point with its cost. */
  record Row(PointResult point, Cost cost) {}

  static List<Row> rows(RunResult result, PriceBook prices) {
    List<Row> rows = new ArrayList<>();
    for (PointResult p : result.points) {
      Cost.of(p, prices).ifPresent(c -> rows.add(new Row(p, c)));
    }
    return rows;
  }

  /** The price book as JSON: the default table, its source, and the repositories' own. */
  static void json(ObjectNode node, PriceBook book) {
    node.put("currency", "USD");
    node.put("source", book.source());
    prices(node.putObject("default"), book.defaults());
    ObjectNode each = node.putObject("repositories");
    book.repositories().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> prices(each.putObject(e.getKey()), e.getValue()));
  }

  private static void prices(ObjectNode node, Prices p) {
    node.put("putPer1000", p.putPer1000());
    node.put("listPer1000", p.listPer1000());
    node.put("getPer1000", p.getPer1000());
    node.put("headPer1000", p.headPer1000());
    node.put("deletePer1000", p.deletePer1000());
    node.put("otherPer1000", p.otherPer1000());
    node.put("transferOutPerGB", p.transferOutPerGB());
  }

  /** A point's cost as JSON ({@code costPerMillionOps}). */
  static void json(ObjectNode node, Cost cost) {
    node.put("currency", "USD");
    node.put("operations", Cost.OPERATIONS);
    charges(node.putObject("array"), cost.array(), cost.arrayTotal());
    charges(node.putObject("direct"), cost.direct(), cost.directTotal());
    JsonReport.number(node, "arrayOverDirect", cost.ratio().orElse(Double.NaN));
  }

  private static void charges(ObjectNode node, Map<String, BigDecimal> byKind, BigDecimal total) {
    byKind.forEach((kind, usd) -> node.put(kind, usd.doubleValue()));
    node.put("total", total.doubleValue());
  }

  /** Dollars with cents, or more digits when the amount is under ten cents. */
  static String usd(BigDecimal amount) {
    double d = amount.doubleValue();
    return d == 0 || Math.abs(d) >= 0.1
        ? String.format(Locale.ROOT, "%.2f", d)
        : String.format(Locale.ROOT, "%.4f", d);
  }

  static String ratio(Cost cost) {
    return cost.ratio().map(r -> String.format(Locale.ROOT, "%.1f", r)).orElse("n/a (free)");
  }

  /** Requests per client operation by kind, such as {@code list 6.0 get 4.2}. */
  static String requestsPerOp(PointResult p) {
    List<String> parts = new ArrayList<>();
    p.merged()
        .repositoryCallsPerRequest()
        .forEach((op, n) -> parts.add(String.format(Locale.ROOT, "%s %.2f", op, n)));
    return String.join(" ", parts);
  }

  /** The console section (nothing when no point has a cost). */
  static void print(RunResult result, PriceBook prices, PrintWriter out) {
    List<Row> rows = rows(result, prices);
    if (rows.isEmpty()) {
      return;
    }
    out.println();
    out.printf(
        Locale.ROOT,
        "cost of %,d client operations, USD (%s):%n",
        Cost.OPERATIONS,
        prices.source());
    String format = "%-40s %-36s %12s %12s %12s %12s%n";
    out.printf(
        Locale.ROOT,
        format,
        "point",
        "repository requests per op",
        "array req",
        "array xfer",
        "direct",
        "array/direct");
    for (Row r : rows) {
      BigDecimal transfer = r.cost().array().get("transferOut");
      out.printf(
          Locale.ROOT,
          format,
          r.point().id(),
          requestsPerOp(r.point()),
          usd(r.cost().arrayTotal().subtract(transfer)),
          usd(transfer),
          usd(r.cost().directTotal()),
          ratio(r.cost()));
    }
  }

  /** The HTML section (empty when no point has a cost). */
  static String html(RunResult result, PriceBook prices) {
    List<Row> rows = rows(result, prices);
    if (rows.isEmpty()) {
      return "";
    }
    StringBuilder h = new StringBuilder();
    h.append("<h2>Repository requests and cost</h2>\n<p>Repository requests per client operation")
        .append(" by kind, and what ")
        .append(String.format(Locale.ROOT, "%,d", Cost.OPERATIONS))
        .append(" client operations cost in US dollars on the array (measured calls and GET bytes")
        .append(" at each repository's prices) and on one repository directly (one request of the")
        .append(" operation's kind, a GET's bytes as transfer out). Prices: ")
        .append(Format.html(prices.source()))
        .append(".</p>\n<table class=\"cost\"><tr><th>point</th>");
    for (String op : List.of("put", "list", "get", "head", "delete", "probe")) {
      h.append("<th>").append(op).append("/op</th>");
    }
    for (String kind : Cost.KINDS) {
      h.append("<th>array ").append(kind).append("</th>");
    }
    h.append("<th>array total</th><th>direct total</th><th>array / direct</th></tr>\n");
    for (Row r : rows) {
      Map<String, Double> perOp = r.point().merged().repositoryCallsPerRequest();
      h.append("<tr><td>").append(Format.html(r.point().id()));
      for (String op : List.of("put", "list", "get", "head", "delete", "probe")) {
        h.append("</td><td>")
            .append(
                Optional.ofNullable(perOp.get(op))
                    .map(n -> String.format(Locale.ROOT, "%.2f", n))
                    .orElse("-"));
      }
      for (String kind : Cost.KINDS) {
        h.append("</td><td>").append(usd(r.cost().array().get(kind)));
      }
      h.append("</td><td>")
          .append(usd(r.cost().arrayTotal()))
          .append("</td><td>")
          .append(usd(r.cost().directTotal()))
          .append("</td><td>")
          .append(ratio(r.cost()))
          .append("</td></tr>\n");
    }
    h.append("</table>\n");
    return h.toString();
  }
}
