package io.racs.bench.report;

import io.racs.bench.object.run.RunResult;
import io.racs.repos.price.PriceBook;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Writes every report file of an object run into one directory. */
public final class ObjectReports {
  private ObjectReports() {}

  /** Writes results.json, results.csv, hlog/*.hlog and report.html under {@code dir}. */
  public static void write(RunResult result, Path dir) throws IOException {
    write(result, dir, PriceBook.awsDefault());
  }

  /** Writes every report file under {@code dir}, the costs of array points at {@code prices}. */
  public static void write(RunResult result, Path dir, PriceBook prices) throws IOException {
    Files.createDirectories(dir);
    Map<String, String> hlogs = HlogReport.write(result.points, dir);
    JsonReport.write(result, dir.resolve("results.json"), hlogs, prices);
    CsvReport.write(result.points, dir.resolve("results.csv"), prices);
    HtmlReport.write(result, dir.resolve("report.html"), prices);
  }
}
