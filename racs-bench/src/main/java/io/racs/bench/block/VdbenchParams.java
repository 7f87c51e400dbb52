package io.racs.bench.block;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A vdbench-style parameter file: storage definitions ({@code sd=}), workload definitions ({@code
 * wd=}) and run definitions ({@code rd=}), one per line, parameters separated by commas, values in
 * parentheses for lists. A line whose first character is {@code *} or {@code #} is a comment; a
 * line ending with a comma continues on the next. Errors name the file, the line and the parameter
 * in one line ({@link IllegalArgumentException}, so the command exits 2).
 */
public final class VdbenchParams {
  /**
   * A storage definition.
   *
   * @param name its name
   * @param lun the file
   * @param sizeBytes the size used
   * @param direct {@code openflags=o_direct}
   */
  public record Sd(String name, Path lun, long sizeBytes, boolean direct) {}

  /**
   * A workload definition.
   *
   * @param name its name
   * @param sd the storage it runs on
   * @param xferBytes bytes per I/O
   * @param readPercent share of reads, 0..100
   * @param seekPercent share of random I/Os (the rest continue sequentially), 0..100
   * @param rangeLowPercent start of the used range, as a percentage of the size
   * @param rangeHighPercent end of the used range, as a percentage of the size
   */
  public record Wd(
      String name,
      Sd sd,
      int xferBytes,
      int readPercent,
      int seekPercent,
      double rangeLowPercent,
      double rangeHighPercent) {}

  /** How a run sets its I/O rate. */
  public enum RateMode {
    /** As fast as the threads can go. */
    MAX,
    /** A fixed rate, {@code iorate=N}. */
    FIXED,
    /** A max run, then runs at the {@code curve=} percentages of the measured max. */
    CURVE
  }

  /**
   * A run definition.
   *
   * @param name its name
   * @param wd the workload
   * @param rateMode max, fixed or curve
   * @param iorate the fixed rate (I/Os per second), or 0
   * @param elapsedSeconds run length, warmup included
   * @param warmupSeconds the first part of the run, excluded from the summary
   * @param intervalSeconds reporting interval
   * @param threads thread counts to run ({@code forthreads}, else {@code threads})
   * @param xferBytes transfer sizes to run ({@code forxfersize}, else the workload's)
   * @param exponential exponential (Poisson) arrivals, else uniform spacing
   * @param curvePercents the curve's percentages of the max rate
   */
  public record Rd(
      String name,
      Wd wd,
      RateMode rateMode,
      double iorate,
      double elapsedSeconds,
      double warmupSeconds,
      double intervalSeconds,
      List<Integer> threads,
      List<Integer> xferBytes,
      boolean exponential,
      List<Double> curvePercents) {}

  private final List<Rd> runs;

  private VdbenchParams(List<Rd> runs) {
    this.runs = runs;
  }

  /** The run definitions in file order. */
  public List<Rd> runs() {
    return runs;
  }

  /** Reads and parses {@code file}. */
  public static VdbenchParams read(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("FILE: " + file + " (expected: a parameter file)");
    }
    return parse(file.getFileName().toString(), Files.readAllLines(file));
  }

  /** Parses {@code lines}; {@code source} names them in errors. */
  public static VdbenchParams parse(String source, List<String> lines) {
    Map<String, Sd> sds = new LinkedHashMap<>();
    Map<String, Wd> wds = new LinkedHashMap<>();
    List<Rd> rds = new ArrayList<>();
    StringBuilder pending = new StringBuilder();
    int pendingLine = 0;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("*") || line.startsWith("#")) {
        if (pending.isEmpty()) {
          continue;
        }
        line = "";
      }
      if (pending.isEmpty()) {
        pendingLine = i + 1;
      }
      pending.append(line);
      if (line.endsWith(",") && i + 1 < lines.size()) {
        continue;
      }
      Line l = new Line(source, pendingLine, pending.toString());
      pending.setLength(0);
      switch (l.kind) {
        case "sd" -> {
          Sd sd = sd(l);
          sds.put(sd.name(), sd);
        }
        case "wd" -> {
          Wd wd = wd(l, sds);
          wds.put(wd.name(), wd);
        }
        case "rd" -> rds.add(rd(l, wds));
        default -> throw l.error(l.kind, l.name, "a definition starting with sd=, wd= or rd=");
      }
    }
    if (rds.isEmpty()) {
      throw new IllegalArgumentException(source + ": no run definition (expected: an rd= line)");
    }
    return new VdbenchParams(List.copyOf(rds));
  }

  private static Sd sd(Line l) {
    l.allow("sd", "lun", "size", "openflags", "threads");
    String lun = l.required("lun");
    long size = l.size("size", l.required("size"));
    boolean direct = false;
    String flags = l.values.get("openflags");
    if (flags != null) {
      for (String f : list(flags)) {
        switch (f.toLowerCase(Locale.ROOT)) {
          case "o_direct", "directio" -> direct = true;
          default -> throw l.error("openflags", f, "o_direct");
        }
      }
    }
    return new Sd(l.name, Path.of(lun), size, direct);
  }

  private static Wd wd(Line l, Map<String, Sd> sds) {
    l.allow("wd", "sd", "xfersize", "rdpct", "seekpct", "range");
    String sdName = l.required("sd");
    Sd sd = sds.get(sdName);
    if (sd == null) {
      throw l.error("sd", sdName, "an sd= defined above");
    }
    int xfer = (int) l.size("xfersize", l.values.getOrDefault("xfersize", "4k"));
    int rdpct = l.percent("rdpct", l.values.getOrDefault("rdpct", "100"));
    String seek = l.values.getOrDefault("seekpct", "100");
    int seekpct =
        switch (seek.toLowerCase(Locale.ROOT)) {
          case "random" -> 100;
          case "seq", "sequential", "eof" -> 0;
          default -> l.percent("seekpct", seek);
        };
    double low = 0;
    double high = 100;
    if (l.values.containsKey("range")) {
      List<String> r = list(l.values.get("range"));
      if (r.size() != 2) {
        throw l.error("range", l.values.get("range"), "(low,high) percentages");
      }
      low = l.number("range", r.get(0));
      high = l.number("range", r.get(1));
      if (low < 0 || high > 100 || low >= high) {
        throw l.error("range", l.values.get("range"), "0 <= low < high <= 100");
      }
    }
    return new Wd(l.name, sd, xfer, rdpct, seekpct, low, high);
  }

  private static Rd rd(Line l, Map<String, Wd> wds) {
    l.allow(
        "rd",
        "wd",
        "iorate",
        "elapsed",
        "warmup",
        "interval",
        "threads",
        "forthreads",
        "forxfersize",
        "distribution",
        "curve");
    String wdName = l.required("wd");
    Wd wd = wds.get(wdName);
    if (wd == null) {
      throw l.error("wd", wdName, "a wd= defined above");
    }
    String iorate = l.values.getOrDefault("iorate", "max").toLowerCase(Locale.ROOT);
    RateMode mode;
    double rate = 0;
    switch (iorate) {
      case "max" -> mode = RateMode.MAX;
      case "curve" -> mode = RateMode.CURVE;
      default -> {
        mode = RateMode.FIXED;
        rate = l.number("iorate", iorate);
        if (rate <= 0) {
          throw l.error("iorate", iorate, "max, curve or a rate > 0");
        }
      }
    }
    double elapsed = l.seconds("elapsed", l.values.getOrDefault("elapsed", "30"));
    double interval = l.seconds("interval", l.values.getOrDefault("interval", "1"));
    double warmup = l.values.containsKey("warmup") ? l.number("warmup", l.values.get("warmup")) : 0;
    if (warmup < 0 || warmup >= elapsed) {
      throw l.error("warmup", l.values.get("warmup"), "0 <= warmup < elapsed");
    }
    if (interval > elapsed) {
      throw l.error("interval", l.values.get("interval"), "<= elapsed");
    }
    List<Integer> threads = new ArrayList<>();
    if (l.values.containsKey("forthreads")) {
      for (String t : list(l.values.get("forthreads"))) {
        threads.add(l.count("forthreads", t));
      }
    } else {
      threads.add(l.count("threads", l.values.getOrDefault("threads", "8")));
    }
    List<Integer> xfers = new ArrayList<>();
    if (l.values.containsKey("forxfersize")) {
      for (String x : list(l.values.get("forxfersize"))) {
        xfers.add((int) l.size("forxfersize", x));
      }
    } else {
      xfers.add(wd.xferBytes());
    }
    String distribution = l.values.getOrDefault("distribution", "exponential");
    boolean exponential =
        switch (distribution.toLowerCase(Locale.ROOT)) {
          case "exponential", "exp" -> true;
          case "uniform", "uni" -> false;
          default -> throw l.error("distribution", distribution, "exponential or uniform");
        };
    List<Double> curve = new ArrayList<>();
    if (mode == RateMode.CURVE) {
      String c = l.values.getOrDefault("curve", "(10,50,70,80,90,100)");
      List<String> items = list(c);
      if (items.size() == 2 && items.get(0).contains("-")) {
        String[] ab = items.get(0).split("-", 2);
        double a = l.number("curve", ab[0]);
        double b = l.number("curve", ab[1]);
        double step = l.number("curve", items.get(1));
        if (step <= 0 || a <= 0 || b < a) {
          throw l.error("curve", c, "(low-high,step) with 0 < low <= high, step > 0");
        }
        for (double p = a; p <= b + 1e-9; p += step) {
          curve.add(p);
        }
      } else {
        for (String item : items) {
          double p = l.number("curve", item);
          if (p <= 0) {
            throw l.error("curve", c, "percentages > 0");
          }
          curve.add(p);
        }
      }
    } else if (l.values.containsKey("curve")) {
      throw l.error("curve", l.values.get("curve"), "curve= only with iorate=curve");
    }
    return new Rd(
        l.name,
        wd,
        mode,
        rate,
        elapsed,
        warmup,
        interval,
        List.copyOf(threads),
        List.copyOf(xfers),
        exponential,
        List.copyOf(curve));
  }

  /** The items of {@code (a,b,c)} or a single value. */
  static List<String> list(String value) {
    String v = value.strip();
    if (v.startsWith("(") && v.endsWith(")")) {
      v = v.substring(1, v.length() - 1);
    }
    List<String> items = new ArrayList<>();
    for (String s : v.split(",")) {
      if (!s.isBlank()) {
        items.add(s.strip());
      }
    }
    return items;
  }

  /** One logical line, split into {@code key=value} at top-level commas. */
  private static final class Line {
    final String source;
    final int number;
    final String kind;
    final String name;
    final Map<String, String> values = new LinkedHashMap<>();

    Line(String source, int number, String text) {
      this.source = source;
      this.number = number;
      List<String> parts = new ArrayList<>();
      int depth = 0;
      StringBuilder part = new StringBuilder();
      for (char c : text.toCharArray()) {
        if (c == '(') {
          depth++;
        } else if (c == ')') {
          depth--;
        }
        if (c == ',' && depth == 0) {
          parts.add(part.toString());
          part.setLength(0);
        } else {
          part.append(c);
        }
      }
      parts.add(part.toString());
      String firstKey = null;
      String firstValue = null;
      for (String p : parts) {
        if (p.isBlank()) {
          continue;
        }
        int eq = p.indexOf('=');
        if (eq <= 0) {
          throw new IllegalArgumentException(
              source + " line " + number + ": '" + p.strip() + "' (expected: parameter=value)");
        }
        String key = p.substring(0, eq).strip().toLowerCase(Locale.ROOT);
        String value = p.substring(eq + 1).strip();
        if (values.containsKey(key)) {
          throw new IllegalArgumentException(
              source + " line " + number + ": parameter '" + key + "' given twice");
        }
        values.put(key, value);
        if (firstKey == null) {
          firstKey = key;
          firstValue = value;
        }
      }
      if (firstKey == null) {
        throw new IllegalArgumentException(source + " line " + number + ": empty definition");
      }
      this.kind = firstKey;
      this.name = firstValue;
    }

    IllegalArgumentException error(String parameter, String value, String expected) {
      return new IllegalArgumentException(
          source
              + " line "
              + number
              + ": parameter '"
              + parameter
              + "': "
              + value
              + " (expected: "
              + expected
              + ")");
    }

    void allow(String... keys) {
      List<String> allowed = List.of(keys);
      for (String k : values.keySet()) {
        if (!allowed.contains(k)) {
          throw new IllegalArgumentException(
              source
                  + " line "
                  + number
                  + ": unknown parameter '"
                  + k
                  + "' for "
                  + kind
                  + "= (expected one of: "
                  + String.join(", ", allowed)
                  + ")");
        }
      }
    }

    String required(String key) {
      String v = values.get(key);
      if (v == null || v.isEmpty()) {
        throw new IllegalArgumentException(
            source + " line " + number + ": parameter '" + key + "' is missing for " + kind + "=");
      }
      return v;
    }

    long size(String key, String value) {
      long s;
      try {
        s = Sizes.parse(key, value);
      } catch (IllegalArgumentException e) {
        throw error(key, value, "a size such as 4k, 1m or 64KiB");
      }
      if (s < 1 || (key.contains("xfersize") && s > 1 << 30)) {
        throw error(key, value, "1 byte to 1GiB");
      }
      return s;
    }

    double number(String key, String value) {
      try {
        return Double.parseDouble(value.strip());
      } catch (NumberFormatException e) {
        throw error(key, value, "a number");
      }
    }

    double seconds(String key, String value) {
      double s = number(key, value);
      if (!(s > 0)) {
        throw error(key, value, "seconds > 0");
      }
      return s;
    }

    int percent(String key, String value) {
      double p = number(key, value);
      if (p < 0 || p > 100 || p != Math.rint(p)) {
        throw error(key, value, "an integer percentage 0..100");
      }
      return (int) p;
    }

    int count(String key, String value) {
      double n = number(key, value);
      if (n < 1 || n > 4096 || n != Math.rint(n)) {
        throw error(key, value, "an integer 1..4096");
      }
      return (int) n;
    }
  }
}
