package io.racs.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.bench.stats.Estimate;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * {@code racs bench table}: the points of one or more results.json files as a markdown or CSV
 * table, one row per point, the columns chosen by name ({@link #COLUMNS}) or by a dotted path into
 * the point's JSON ({@code latencyMillis.p90}). With {@code merge}, the points of the same id in
 * several files (the rounds of a run repeated) become one row whose every number is the mean over
 * the files with its Student-t interval ({@link Estimate}); with {@code versus}, each point sits
 * beside another target's point of the same workload, with their ratios (RACS over MinIO).
 */
public final class ResultsTable {
  /**
   * A cell: a number with its interval's half-width (NaN when it has none), or a text; integral
   * numbers (counts) print without decimals.
   */
  record Cell(double value, double halfWidth, String text, boolean integral) {
    static Cell of(double value) {
      return new Cell(value, Double.NaN, null, false);
    }

    static Cell text(String text) {
      return new Cell(Double.NaN, Double.NaN, text, false);
    }

    static Cell of(JsonNode node) {
      if (node == null || node.isMissingNode() || node.isNull()) {
        return of(Double.NaN);
      }
      if (node.isObject() && node.has("mean")) {
        return new Cell(number(node.get("mean")), number(node.path("halfWidth")), null, false);
      }
      if (node.isObject()) {
        // A count by name, such as the errors by kind: "NAME value" pairs in name order.
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        List<String> pairs = new ArrayList<>();
        for (String name : names.stream().sorted().toList()) {
          pairs.add(name + " " + markdown(of(node.get(name))));
        }
        return text(String.join(" ", pairs));
      }
      if (node.isArray()) {
        List<String> values = new ArrayList<>();
        node.forEach(value -> values.add(markdown(of(value))));
        return text(String.join(", ", values));
      }
      if (node.isIntegralNumber()) {
        return new Cell(node.asDouble(), Double.NaN, null, true);
      }
      return node.isNumber() ? of(node.asDouble()) : text(node.asText());
    }
  }

  /**
   * A named column: its header and how a point's JSON gives its cell ({@code cell} is given the
   * results file's root too, for what the file keeps beside its points, such as its ratios).
   */
  record Column(String name, String header, BiFunction<JsonNode, JsonNode, Cell> cell) {
    Column withHeader(String other) {
      return new Column(name, other, cell);
    }
  }

  /** The named columns, in the order {@code --help} lists them. */
  public static final Map<String, Column> COLUMNS = columns();

  /** The column of the name of the directory that holds the results.json (the run's name). */
  static final String RUN = "run";

  /** The columns when none are asked for. */
  public static final List<String> DEFAULT_COLUMNS =
      List.of("id", "ops", "mbps", "p50", "p99", "errors");

  private final List<Column> columns;
  private final List<Cell[]> rows = new ArrayList<>();

  private ResultsTable(List<Column> columns) {
    this.columns = columns;
  }

  /** A point, the file it came from, and that file's root. */
  private record Source(Path file, JsonNode root, JsonNode point) {}

  /** What a column shows of a row: the point's value, its counterpart's, or their ratio. */
  private enum Side {
    OWN,
    VERSUS,
    RATIO
  }

  /** A column as asked for: a named or path column, and which side of a pair it shows. */
  private record Choice(Column column, Side side) {}

  /**
   * The table of {@code files}' points in {@code columns}.
   *
   * @param merge one row per point id over all files, each number the mean and its interval at
   *     {@code confidence} over the files that hold the point
   * @param versus null, or a target: then a row per point of the other targets that has a point of
   *     {@code versus} with the same workload, size, clients and delay, and the columns {@code
   *     vs:NAME} (that point's value) and {@code ratio:NAME} (this point's value over it)
   * @throws IllegalArgumentException for a file that is not object results, or a column that is
   *     neither a name of {@link #COLUMNS} nor a path into any point
   */
  public static ResultsTable of(
      List<Path> files, List<String> columns, boolean merge, double confidence, String versus) {
    if (merge && versus != null) {
      throw new IllegalArgumentException(
          "--vs: " + versus + " (expected: either --vs or --merge, not both)");
    }
    List<Choice> chosen = new ArrayList<>();
    List<Column> shown = new ArrayList<>();
    for (String asked : columns) {
      // NAME=HEADER: the column NAME under a header of the caller's (a script's own words).
      int equals = asked.indexOf('=');
      String name = equals < 0 ? asked : asked.substring(0, equals);
      String header = equals < 0 ? null : asked.substring(equals + 1);
      Side side = Side.OWN;
      String base = name;
      if (name.startsWith("vs:") || name.startsWith("ratio:")) {
        if (versus == null) {
          throw new IllegalArgumentException(
              "--columns: " + name + " (expected: vs: and ratio: columns with --vs TARGET)");
        }
        side = name.startsWith("vs:") ? Side.VERSUS : Side.RATIO;
        base = name.substring(name.indexOf(':') + 1);
      }
      Column column = COLUMNS.getOrDefault(base, path(base));
      chosen.add(new Choice(column, side));
      Column named =
          switch (side) {
            case OWN -> column;
            case VERSUS -> new Column(name, versus + " " + column.header(), column.cell());
            case RATIO -> new Column(name, column.header() + " / " + versus, column.cell());
          };
      shown.add(header == null ? named : named.withHeader(header));
    }
    List<Source> sources = new ArrayList<>();
    Map<String, Source> byPointId = new LinkedHashMap<>();
    for (Path file : files) {
      JsonNode root = Compare.read(file);
      if (!root.path("kind").asText().equals("object")) {
        throw new IllegalArgumentException(
            file + ": kind " + root.path("kind").asText() + " (expected: bench object results)");
      }
      for (JsonNode point : root.path("points")) {
        Source source = new Source(file, root, point);
        sources.add(source);
        byPointId.putIfAbsent(point.path("id").asText(), source);
      }
    }
    ResultsTable table = new ResultsTable(shown);
    Map<String, List<Cell[]>> byId = new LinkedHashMap<>();
    for (Source source : sources) {
      String id = source.point().path("id").asText();
      Source counterpart = null;
      if (versus != null) {
        if (source.point().path("target").asText().equals(versus)) {
          continue;
        }
        counterpart = byPointId.get(versus + id.substring(Math.max(0, id.indexOf('/'))));
        if (counterpart == null) {
          continue;
        }
      }
      Cell[] row = new Cell[chosen.size()];
      for (int c = 0; c < row.length; c++) {
        row[c] = cell(chosen.get(c), source, counterpart);
      }
      byId.computeIfAbsent(id, k -> new ArrayList<>()).add(row);
      if (!merge) {
        table.rows.add(row);
      }
    }
    if (merge) {
      byId.values().forEach(same -> table.rows.add(merged(same, confidence)));
    }
    for (int c = 0; c < chosen.size(); c++) {
      int column = c;
      if (!COLUMNS.containsKey(chosen.get(c).column().name())
          && table.rows.stream()
              .allMatch(r -> r[column].text() == null && Double.isNaN(r[column].value()))) {
        throw new IllegalArgumentException(
            "--columns: "
                + columns.get(c)
                + " (expected: one of "
                + String.join(", ", COLUMNS.keySet())
                + ", or a path into a point such as latencyMillis.p90)");
      }
    }
    return table;
  }

  private static Cell cell(Choice choice, Source source, Source counterpart) {
    Source from = choice.side() == Side.VERSUS ? counterpart : source;
    Cell own = value(choice.column(), from);
    if (choice.side() != Side.RATIO) {
      return own;
    }
    Cell other = value(choice.column(), counterpart);
    return Cell.of(other.value() == 0 ? Double.NaN : own.value() / other.value());
  }

  private static Cell value(Column column, Source source) {
    return column.name().equals(RUN)
        ? Cell.text(String.valueOf(source.file().toAbsolutePath().getParent().getFileName()))
        : column.cell().apply(source.root(), source.point());
  }

  /** Each number the mean over {@code same} with its interval; a text the first row's. */
  private static Cell[] merged(List<Cell[]> same, double confidence) {
    Cell[] out = new Cell[same.getFirst().length];
    for (int c = 0; c < out.length; c++) {
      int column = c;
      double[] values =
          same.stream().mapToDouble(r -> r[column].value()).filter(v -> !Double.isNaN(v)).toArray();
      if (same.getFirst()[c].text() != null || values.length == 0) {
        out[c] = same.getFirst()[c];
      } else {
        Estimate e = Estimate.atConfidence(confidence, values);
        out[c] = new Cell(e.mean(), e.halfWidth(), null, false);
      }
    }
    return out;
  }

  /** Prints a markdown table (headers, a rule, a row per point). */
  public void markdown(PrintWriter out) {
    List<String> header = columns.stream().map(Column::header).toList();
    out.println("| " + String.join(" | ", header) + " |");
    out.println("|" + "---|".repeat(header.size()));
    for (Cell[] row : rows) {
      List<String> cells = new ArrayList<>();
      for (Cell cell : row) {
        cells.add(markdown(cell));
      }
      out.println("| " + String.join(" | ", cells) + " |");
    }
    out.flush();
  }

  /**
   * Prints CSV: a column per column name, and beside every column that has intervals its half-width
   * as {@code NAME_ci}; unknown numbers are empty.
   */
  public void csv(PrintWriter out) {
    List<String> header = new ArrayList<>();
    boolean[] ci = new boolean[columns.size()];
    for (int c = 0; c < columns.size(); c++) {
      int column = c;
      ci[c] = rows.stream().anyMatch(r -> !Double.isNaN(r[column].halfWidth()));
      header.add(Format.csv(columns.get(c).name()));
      if (ci[c]) {
        header.add(Format.csv(columns.get(c).name() + "_ci"));
      }
    }
    out.println(String.join(",", header));
    for (Cell[] row : rows) {
      List<String> cells = new ArrayList<>();
      for (int c = 0; c < row.length; c++) {
        cells.add(row[c].text() != null ? Format.csv(row[c].text()) : raw(row[c]));
        if (ci[c]) {
          cells.add(raw(Cell.of(row[c].halfWidth())));
        }
      }
      out.println(String.join(",", cells));
    }
    out.flush();
  }

  private static String markdown(Cell cell) {
    if (cell.text() != null) {
      return cell.text().replace("|", "\\|");
    }
    if (cell.integral()) {
      return Long.toString((long) cell.value());
    }
    if (Double.isNaN(cell.halfWidth())) {
      return Format.number(cell.value());
    }
    return Format.number(cell.value()) + " ± " + Format.number(cell.halfWidth());
  }

  private static String raw(Cell cell) {
    if (Double.isNaN(cell.value())) {
      return "";
    }
    return cell.integral() ? Long.toString((long) cell.value()) : Double.toString(cell.value());
  }

  private static double number(JsonNode node) {
    return node == null || !node.isNumber() ? Double.NaN : node.asDouble();
  }

  /** A column of the value at a dotted path into the point ({@code latencyMillis.p90}). */
  private static Column path(String path) {
    String[] steps = path.split("\\.");
    return new Column(path, path, (root, point) -> Cell.of(walk(point, steps, 0)));
  }

  /**
   * The node at {@code steps} from {@code node}; through an array, the array of what each element
   * holds there ({@code iterations.opsPerSecond}: every iteration's rate).
   */
  private static JsonNode walk(JsonNode node, String[] steps, int from) {
    for (int i = from; i < steps.length; i++) {
      if (node.isArray()) {
        com.fasterxml.jackson.databind.node.ArrayNode each = JsonReport.MAPPER.createArrayNode();
        for (JsonNode element : node) {
          each.add(walk(element, steps, i));
        }
        return each;
      }
      node = node.path(steps[i]);
    }
    return node;
  }

  /** Milliseconds per sampled request of a number under {@code sampledCpu} given in seconds. */
  private static Function<JsonNode, Cell> perRequest(String... seconds) {
    return point -> {
      JsonNode cpu = point.path("sampledCpu");
      double requests = number(cpu.get("requests"));
      if (cpu.isMissingNode() || cpu.isNull() || !(requests > 0)) {
        return Cell.of(Double.NaN);
      }
      double sum = 0;
      for (String field : seconds) {
        JsonNode node = cpu;
        for (String step : field.split("\\.")) {
          node = node.path(step);
        }
        sum += number(node);
      }
      // Context switches are a count per request; the rest are seconds, shown in milliseconds.
      boolean count = seconds.length == 1 && seconds[0].equals("contextSwitches");
      return Cell.of(count ? sum / requests : 1000 * sum / requests);
    };
  }

  private static Map<String, Column> columns() {
    Map<String, Column> c = new LinkedHashMap<>();
    put(c, RUN, "run", p -> Cell.text(""));
    put(c, "id", "point", p -> Cell.text(p.path("id").asText()));
    put(c, "target", "target", p -> Cell.text(p.path("target").asText()));
    put(c, "workload", "workload", p -> Cell.text(p.path("workload").asText()));
    put(c, "size", "size", p -> Cell.text(p.path("size").asText()));
    put(c, "clients", "clients", p -> Cell.of(p.path("clients")));
    put(c, "delay", "round trip", p -> Cell.text(p.path("delayMillis").asText() + "ms"));
    put(c, "operations", "operations", p -> Cell.of(p.path("ops")));
    put(c, "ops", "ops/s (CI)", p -> Cell.of(p.path("throughput").path("opsPerSecond")));
    put(
        c,
        "mbps",
        "MB/s",
        p -> Cell.of(p.path("throughput").path("megabytesPerSecond").path("mean")));
    put(c, "p50", "p50 ms", p -> Cell.of(p.path("latencyMillis").path("p50")));
    put(c, "p90", "p90 ms", p -> Cell.of(p.path("latencyMillis").path("p90")));
    put(c, "p99", "p99 ms", p -> Cell.of(p.path("latencyMillis").path("p99")));
    put(c, "p999", "p99.9 ms", p -> Cell.of(p.path("latencyMillis").path("p999")));
    put(c, "max", "max ms", p -> Cell.of(p.path("latencyMillis").path("max")));
    put(c, "errors", "errors", p -> Cell.of(p.path("errorsTotal")));
    put(c, "errorKinds", "errors by kind", p -> Cell.of(p.path("errors")));
    put(
        c,
        "repositoryRequests",
        "repository requests per op",
        // An array point without them made no repository request at all (a warm HEAD with the
        // version cache); other targets have none to count.
        p ->
            p.has("repositoryRequestsPerOp")
                ? Cell.of(p.get("repositoryRequestsPerOp"))
                : Cell.text(p.path("targetKind").asText().equals("array") ? "none" : ""));
    put(
        c,
        "cost",
        "USD per 1M ops, RACS / direct",
        p -> {
          JsonNode cost = p.path("costPerMillionOps");
          return cost.isObject()
              ? Cell.text(
                  String.format(
                      java.util.Locale.ROOT,
                      "%.2f / %.2f",
                      cost.path("array").path("total").asDouble(),
                      cost.path("direct").path("total").asDouble()))
              : Cell.text("-");
        });
    put(
        c,
        "costRatio",
        "cost ratio",
        p -> Cell.of(p.path("costPerMillionOps").path("arrayOverDirect")));
    c.put(
        "pir",
        new Column(
            "pir",
            "PIR",
            (root, p) -> ratio(root, p, "parallelismImpact", /* perClient= */ false)));
    c.put(
        "pirPerClient",
        new Column(
            "pirPerClient",
            "PIR / clients",
            (root, p) -> ratio(root, p, "parallelismImpact", /* perClient= */ true)));
    put(c, "clientCpu", "client CPU", p -> Cell.of(p.path("clientCpu").path("maxUtilisation")));
    put(c, "cpuWaited", "CPU waited", p -> Cell.of(p.path("clientCpu").path("maxPressure")));
    put(c, "requests", "requests", p -> Cell.of(p.path("sampledCpu").path("requests")));
    put(
        c,
        "cpuSeconds",
        "CPU s",
        p ->
            Cell.of(
                number(p.path("sampledCpu").path("userSeconds"))
                    + number(p.path("sampledCpu").path("systemSeconds"))));
    put(
        c,
        "cpuMsPerRequest",
        "CPU ms/request (CI)",
        p -> Cell.of(p.path("sampledCpu").path("msPerRequestEstimate")));
    put(c, "userMsPerRequest", "user ms/request", perRequest("userSeconds"));
    put(c, "systemMsPerRequest", "system ms/request", perRequest("systemSeconds"));
    put(c, "switchesPerRequest", "context switches/request", perRequest("contextSwitches"));
    for (String group : List.of("jit", "gc", "eventLoop", "forkJoin", "other", "unattributed")) {
      put(
          c,
          group + "MsPerRequest",
          group + " ms/request",
          perRequest("threadGroupSeconds." + group));
    }
    put(
        c,
        "cpuWithoutJitMsPerRequest",
        "CPU without JIT ms/request",
        point -> {
          Cell all = perRequest("userSeconds", "systemSeconds").apply(point);
          Cell jit = perRequest("threadGroupSeconds.jit").apply(point);
          return Cell.of(all.value() - jit.value());
        });
    return java.util.Collections.unmodifiableMap(c);
  }

  private static void put(
      Map<String, Column> columns, String name, String header, Function<JsonNode, Cell> cell) {
    columns.put(name, new Column(name, header, (root, point) -> cell.apply(point)));
  }

  /**
   * The value of the file's ratio of {@code kind} whose numerator is the point (absent for the
   * point it is over, such as the one-client point of a parallelism impact), divided by the point's
   * clients if {@code perClient}.
   */
  private static Cell ratio(JsonNode root, JsonNode point, String kind, boolean perClient) {
    for (JsonNode ratio : root.path("ratios")) {
      if (ratio.path("kind").asText().equals(kind)
          && ratio.path("numerator").asText().equals(point.path("id").asText())) {
        double value = number(ratio.get("value"));
        return Cell.of(perClient ? value / point.path("clients").asDouble() : value);
      }
    }
    return Cell.of(Double.NaN);
  }
}
