package io.racs.bench.block;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * The outputs of {@code block matrix}: {@code results.json} ({@code kind: block-matrix} in {@code
 * racs-bench/RESULTS-SCHEMA.md}, one point per cell), {@code matrix.csv} with one IOzone-style
 * table per test (a title line, a header of record sizes in KiB, one row per file size in KiB;
 * cells in KB/s, {@code skipped} for cells not run, empty where the record is larger than the file)
 * and {@code report.html} with the same tables as heat maps (colour on a log scale per test).
 */
public final class IozoneMatrixReport {
  private IozoneMatrixReport() {}

  /** Writes results.json, matrix.csv and report.html into {@code dir}. */
  public static void write(
      IozoneMatrix.Config config,
      List<IozoneMatrix.Cell> cells,
      Path dir,
      String title,
      List<String> command,
      Instant startedAt)
      throws IOException {
    BlockJson.write(dir, json(config, cells, command, startedAt));
    Files.write(dir.resolve("matrix.csv"), csv(cells));
    Files.writeString(dir.resolve("report.html"), html(cells, title));
  }

  /** The id of a cell, e.g. {@code randread/1MiB/4KiB} (test, file size, record size). */
  public static String id(IozoneMatrix.Cell c) {
    return c.test().label() + "/" + Sizes.label(c.fileBytes()) + "/" + Sizes.label(c.recordBytes());
  }

  static ObjectNode json(
      IozoneMatrix.Config config,
      List<IozoneMatrix.Cell> cells,
      List<String> command,
      Instant startedAt) {
    ObjectNode root = BlockJson.root("block-matrix", startedAt, command);
    ObjectNode plan = root.putObject("plan");
    plan.put("file", config.file().toString());
    ArrayNode files = plan.putArray("fileSizesBytes");
    config.fileSizes().forEach(files::add);
    ArrayNode records = plan.putArray("recordSizesBytes");
    config.recordSizes().forEach(records::add);
    ArrayNode tests = plan.putArray("tests");
    for (IozoneMatrix.Test t : IozoneMatrix.Test.values()) {
      if (config.tests().contains(t)) {
        tests.add(t.label());
      }
    }
    plan.put("maxCells", config.maxCells());
    BlockJson.number(
        plan,
        "budgetSeconds",
        config.budget() == null ? Double.NaN : config.budget().toNanos() / 1e9);
    plan.put("direct", config.direct());
    plan.put("fsync", config.fsync());
    plan.put("seed", config.seed());
    ArrayNode points = root.putArray("points");
    for (IozoneMatrix.Cell c : cells) {
      ObjectNode o = points.addObject();
      o.put("id", id(c));
      o.put("test", c.test().label());
      o.put("column", c.test().column());
      o.put("fileBytes", c.fileBytes());
      o.put("recordBytes", c.recordBytes());
      o.put("skipped", c.skipped());
      BlockJson.number(o, "kilobytesPerSecond", c.kilobytesPerSecond());
    }
    root.putArray("notes");
    return root;
  }

  private static List<IozoneMatrix.Test> tests(List<IozoneMatrix.Cell> cells) {
    List<IozoneMatrix.Test> tests = new ArrayList<>();
    for (IozoneMatrix.Cell c : cells) {
      if (!tests.contains(c.test())) {
        tests.add(c.test());
      }
    }
    return tests;
  }

  private static IozoneMatrix.Cell find(
      List<IozoneMatrix.Cell> cells, IozoneMatrix.Test t, long file, int record) {
    for (IozoneMatrix.Cell c : cells) {
      if (c.test() == t && c.fileBytes() == file && c.recordBytes() == record) {
        return c;
      }
    }
    return null;
  }

  /** The CSV lines. */
  static List<String> csv(List<IozoneMatrix.Cell> cells) {
    TreeSet<Long> files = new TreeSet<>();
    TreeSet<Integer> records = new TreeSet<>();
    cells.forEach(
        c -> {
          files.add(c.fileBytes());
          records.add(c.recordBytes());
        });
    List<String> lines = new ArrayList<>();
    for (IozoneMatrix.Test t : tests(cells)) {
      lines.add("\"" + t.column() + " report\",KB/s,rows: file size KiB,columns: record size KiB");
      StringBuilder header = new StringBuilder("file KiB");
      records.forEach(r -> header.append(',').append(r / 1024));
      lines.add(header.toString());
      for (long f : files) {
        StringBuilder row = new StringBuilder(Long.toString(f / 1024));
        for (int r : records) {
          IozoneMatrix.Cell c = find(cells, t, f, r);
          row.append(',');
          if (c != null) {
            row.append(
                c.skipped()
                    ? "skipped"
                    : String.format(Locale.ROOT, "%.0f", c.kilobytesPerSecond()));
          }
        }
        lines.add(row.toString());
      }
      lines.add("");
    }
    return lines;
  }

  /** The HTML heat maps. */
  static String html(List<IozoneMatrix.Cell> cells, String title) {
    TreeSet<Long> files = new TreeSet<>();
    TreeSet<Integer> records = new TreeSet<>();
    cells.forEach(
        c -> {
          files.add(c.fileBytes());
          records.add(c.recordBytes());
        });
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>racs bench block matrix")
        .append("</title>\n<style>body{font-family:sans-serif;margin:2em}table{border-collapse:")
        .append("collapse;margin-bottom:2em}td,th{border:1px solid #ccc;padding:2px 6px;")
        .append("text-align:right}</style></head><body>\n<h1>racs bench block matrix</h1>\n<p>")
        .append(SweepReport.escape(title))
        .append(" — KB/s (1024 bytes per second); grey: skipped</p>\n");
    for (IozoneMatrix.Test t : tests(cells)) {
      double min = Double.MAX_VALUE;
      double max = 0;
      for (IozoneMatrix.Cell c : cells) {
        if (c.test() == t && !c.skipped() && c.kilobytesPerSecond() > 0) {
          min = Math.min(min, c.kilobytesPerSecond());
          max = Math.max(max, c.kilobytesPerSecond());
        }
      }
      h.append("<h2>")
          .append(SweepReport.escape(t.column()))
          .append("</h2>\n<table><tr><th>")
          .append("file \\ record</th>");
      records.forEach(r -> h.append("<th>").append(Sizes.label(r)).append("</th>"));
      h.append("</tr>\n");
      for (long f : files) {
        h.append("<tr><th>").append(Sizes.label(f)).append("</th>");
        for (int r : records) {
          IozoneMatrix.Cell c = find(cells, t, f, r);
          if (c == null) {
            h.append("<td></td>");
          } else if (c.skipped()) {
            h.append("<td style=\"background:#ddd\">skipped</td>");
          } else {
            double share =
                max > min
                    ? (Math.log(c.kilobytesPerSecond()) - Math.log(min))
                        / (Math.log(max) - Math.log(min))
                    : 1;
            // Red (slow) through yellow to green (fast).
            int hue = (int) Math.round(120 * Math.max(0, Math.min(1, share)));
            h.append(
                String.format(
                    Locale.ROOT,
                    "<td style=\"background:hsl(%d,70%%,75%%)\">%.0f</td>",
                    hue,
                    c.kilobytesPerSecond()));
          }
        }
        h.append("</tr>\n");
      }
      h.append("</table>\n");
    }
    h.append("</body></html>\n");
    return h.toString();
  }
}
